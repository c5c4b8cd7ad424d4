# More replicas when the pods' CPU use passes 70 % of what they request, fewer when it falls; a pod
# taken away is drained like any other (readiness 503, then its requests in flight finish), so a
# scale-down loses no request. Never fewer than the Deployment's two, so one always serves while
# the other is disrupted.
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{name}}
  labels:
    app.kubernetes.io/name: {{name}}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{name}}
  minReplicas: 2
  maxReplicas: 10
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 70
  behavior:
    scaleDown:
      # Load that dips for a moment does not take pods away only to add them back.
      stabilizationWindowSeconds: 300
