/*
 * tmplpath.h - find template files: --template DIR, then $IOMATRIX_TEMPLATES,
 * then templates/ next to the binary (DIR/templates, DIR/../templates,
 * DIR/../../templates for build/<name>/iomatrix), then ./templates, then
 * IOMATRIX_TEMPLATE_DIR (compile-time, default the `make install` place).
 * A file missing from an earlier directory is looked up in the later ones,
 * so --template DIR may replace only some files.
 */
#ifndef IOMATRIX_TMPLPATH_H
#define IOMATRIX_TMPLPATH_H

#include "util/errlist.h"
#include "template.h"

#ifndef IOMATRIX_TEMPLATE_DIR
#define IOMATRIX_TEMPLATE_DIR "/usr/local/share/iomatrix/templates"
#endif

/* Path of the first existing `name` (caller frees), NULL with a message. */
char *tmplpath_find(const char *name, const char *user_dir, char **argv,
		    struct errlist *errs);
/* Find and compile a template; NULL with file:line:col messages. */
struct tmpl *tmplpath_load(const char *name, const char *user_dir, char **argv,
			   struct errlist *errs);
/* Find and read a plain file (style.css); caller frees. */
char *tmplpath_read(const char *name, const char *user_dir, char **argv,
		    struct errlist *errs);

#endif
