# The shape of the Secret the Deployment reads DATABASE_URL from. It lives outside k8s/ itself
# so that `kubectl apply -f k8s/` never replaces a real Secret with this placeholder; create
# the real one with `kubectl create secret generic` (see README.md) or from a copy of this file.
apiVersion: v1
kind: Secret
metadata:
  name: {{name}}-database
type: Opaque
stringData:
  url: postgres://USER:PASSWORD@HOST:5432/DATABASE
