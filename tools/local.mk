# tools/: commands for users beside efsi, installed with it: efsi-render (pictures of fields
# files and run folders, docs/output.md).
dist_bin_SCRIPTS = tools/efsi-render
