node_modules
dist
.data
.git
