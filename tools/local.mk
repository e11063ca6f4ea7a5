# tools/: commands for users beside efsi, installed with it: efsi-render (pictures of fields
# files and run folders, docs/output.md), and efsi_output.py, the Python module through which
# every script reads efsi's output and asks efsi about a run (docs/scripts.md), installed into
# $(pkgdatadir); the installed efsi-render is told that folder (it finds the module beside
# itself in the source tree).
dist_bin_SCRIPTS = tools/efsi-render
dist_pkgdata_DATA = tools/efsi_output.py
install-exec-hook:
	sed -e 's|^INSTALLED_MODULE_DIR = None$$|INSTALLED_MODULE_DIR = "$(pkgdatadir)"|' \
	  "$(DESTDIR)$(bindir)/efsi-render" > "$(DESTDIR)$(bindir)/efsi-render.tmp"
	chmod 755 "$(DESTDIR)$(bindir)/efsi-render.tmp"
	mv "$(DESTDIR)$(bindir)/efsi-render.tmp" "$(DESTDIR)$(bindir)/efsi-render"
