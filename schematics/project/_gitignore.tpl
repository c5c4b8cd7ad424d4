node_modules/
dist/
.data/
