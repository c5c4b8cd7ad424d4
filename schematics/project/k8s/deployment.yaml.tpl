# {{name}} behind a Service, on an external PostgreSQL named by the Secret {{name}}-database.
# Replace the image with the one you pushed (see README.md).
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{name}}
  labels:
    app.kubernetes.io/name: {{name}}
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: {{name}}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      # A new pod serves before an old one leaves: capacity never drops during a rollout.
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/name: {{name}}
      # What Prometheus's Kubernetes pod discovery reads (with the usual relabelling rules): the
      # metrics' own port, which the Service does not expose.
      annotations:
        prometheus.io/scrape: 'true'
        prometheus.io/port: '9464'
        prometheus.io/path: /metrics
    spec:
      # Longer than the whole shutdown: SHUTDOWN_DELAY_MS (5 s) of serving with readiness 503, then at
      # most keel's shutdownTimeoutMs (10 s) of draining; past the grace period the kubelet kills the
      # process and requests still in flight are lost.
      terminationGracePeriodSeconds: 30
      securityContext:
        runAsNonRoot: true
        # The image's user `node`; a numeric uid lets the kubelet verify runAsNonRoot.
        runAsUser: 1000
        runAsGroup: 1000
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: {{name}}
          image: registry.example.com/{{name}}:0.1.0
          ports:
            - name: http
              containerPort: 8080
            - name: metrics
              containerPort: 9464
          env:
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: {{name}}-database
                  key: url
            # Keeps serving, readiness 503, while the endpoint removal reaches every proxy.
            - name: SHUTDOWN_DELAY_MS
              value: '5000'
          livenessProbe:
            # /health never touches the database: a database outage must not restart the pods.
            httpGet:
              path: /health
              port: 8080
            initialDelaySeconds: 5
            periodSeconds: 10
            # The answer is immediate; 2 s leaves room for a garbage-collection pause, and three misses
            # in a row (30 s of silence) mean a stuck process worth restarting.
            timeoutSeconds: 2
            failureThreshold: 3
          readinessProbe:
            # keel bounds the database ping to 500 ms, so an answer always comes within 1 s.
            httpGet:
              path: /health/ready
              port: 8080
            initialDelaySeconds: 5
            periodSeconds: 10
            timeoutSeconds: 1
            # One slow ping does not take a pod out of the Service; a database gone for two checks does.
            failureThreshold: 2
            successThreshold: 1
          resources:
            # The HorizontalPodAutoscaler scales on CPU relative to this request; the limits leave room
            # for bursts of requests and garbage-collection headroom.
            requests:
              cpu: 100m
              memory: 128Mi
            limits:
              cpu: '1'
              memory: 256Mi
          securityContext:
            # With DATABASE_URL set the application needs to write no file (Node's compile cache stays off).
            readOnlyRootFilesystem: true
            allowPrivilegeEscalation: false
            capabilities:
              drop: ['ALL']
