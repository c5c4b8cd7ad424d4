# A node drain (an upgrade, a scale-in of the cluster) evicts pods one at a time and waits while
# evicting another would leave no replica serving. Each evicted pod gets SIGTERM and drains as a
# deletion does: readiness 503 first, then the requests in flight finish.
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{name}}
  labels:
    app.kubernetes.io/name: {{name}}
spec:
  minAvailable: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: {{name}}
