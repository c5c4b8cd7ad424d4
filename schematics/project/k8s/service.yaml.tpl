# {{name}} inside the cluster on port 80; only ready pods (GET /health/ready 200) receive traffic.
apiVersion: v1
kind: Service
metadata:
  name: {{name}}
  labels:
    app.kubernetes.io/name: {{name}}
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: {{name}}
  ports:
    - name: http
      port: 80
      targetPort: http
