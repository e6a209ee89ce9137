/*
 * optspec.h - one option table per command, as git's parse-options declares
 * them: from the table come the command's "usage:" lines, its lines in
 * `iomatrix --help` (and so the man page, which man/mkman.sh builds from the
 * help texts) and every answer the bash completion (completion/) gets from
 * `iomatrix --complete`.  Parsing stays in each command; the tables only
 * declare, and tests/unit/test_optspec.c and
 * tests/integration/tooling/cli_usage_completion_man_from_table.sh hold usage,
 * completion and man page to them.  optspec_next() parses argv by the
 * same table, so an option is known, spelled (aliases, "--x=V"), given a
 * value or refused with the fix in one place; the command only acts on the
 * row it gets back.  Options that two commands share (run and reproduce)
 * live in one table that both name as .shared.
 *
 * Adding an option is one row in its command's table plus the command's
 * branch for its id; nothing else lists options.
 */
#ifndef IOMATRIX_OPTSPEC_H
#define IOMATRIX_OPTSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What completes an option's value or a command's operands. */
enum optv {
	OPTV_NONE,      /* free text: nothing to offer */
	OPTV_WORDS,     /* one of .words */
	OPTV_DIR,       /* a directory */
	OPTV_FILE,      /* any file */
	OPTV_SUITE,     /* a suite: *.yaml or *.yml, and directories */
};

#define OPT_REPEAT   1u  /* may be given again: "[--x V]..." */
#define OPT_REQUIRED 2u  /* shown without brackets */

/* Usage forms an option is shown in (bit i: form i).  0 means form 0. */
#define OPT_FORM(i) (1u << (i))
#define OPT_ALL_FORMS 0xffu

struct option_spec {
	const char *name;   /* "--device", or "-o": the spelling usage shows */
	const char *alias;  /* the other spellings the parser takes,
			     * space-separated ("--out --output"); NULL */
	const char *arg;    /* the value's name in usage ("NAME=PATH"); NULL
			     * for a flag */
	unsigned forms;     /* OPT_FORM() bits; 0: form 0 only */
	unsigned flags;     /* OPT_REPEAT, OPT_REQUIRED */
	enum optv value;    /* what completes the value */
	const char *words;  /* OPTV_WORDS: the values, space-separated */
	int id;             /* the command's name for the row (its switch
			     * label); 0 when the command matches on name */
};

#define OPTSPEC_MAX_FORMS 4

struct command_spec {
	const char *name;
	/* the operands of each usage form ("SUITE.yaml", "fio FILE.json...");
	 * the list ends at the first NULL; an empty string is a form with no
	 * operands */
	const char *forms[OPTSPEC_MAX_FORMS + 1];
	const char *note;           /* after the synopsis in `iomatrix --help`
				     * only; NULL */
	const struct option_spec *shared; /* rows shared with other commands,
					   * shown before opts; NULL */
	const struct option_spec *opts; /* ends with a row whose name is NULL */
	const char *first_words;    /* the first operand is one of these
				     * ("fio sysbench csv"); NULL */
	enum optv operand;          /* what completes the other operands */
	bool hidden;                /* not offered by completion (agent) */
};

/* The "usage:" lines of c, one per form ("usage: iomatrix NAME ..." then
 * "       iomatrix NAME ..."), wrapped before an option so that no line is
 * wider than 79 columns, continuation lines indented under the operands. */
void optspec_usage(FILE *f, const struct command_spec *c);

/* c's lines in `iomatrix --help`: "  iomatrix NAME ..." per form (then
 * the note), wrapped at 79 columns with continuation lines indented by
 * six. */
void optspec_synopsis(FILE *f, const struct command_spec *c);

/* The option of c spelled arg (its name or an alias), or NULL. */
const struct option_spec *optspec_find(const struct command_spec *c, const char *arg);

/* Row i of c's options (c->shared's rows, then c->opts's), or NULL past the
 * last: for (k = 0; (o = optspec_row(c, k)); k++). */
const struct option_spec *optspec_row(const struct command_spec *c, size_t i);

/*
 * Parsing argv by c's table.  Set c, argc, argv and i = 1 (the first
 * argument after the command's name), then call optspec_next() until it
 * returns 0.  Each call reads one argument (and an option's value: "--x V",
 * "--x=V", or an alias "-o V") and returns 1 with opt and value set (opt
 * NULL: value is an operand; "-" alone and everything after "--" are
 * operands), 0 after the last argument, or -1 with the message printed to
 * stderr: an unknown option (with the nearest spelling of the table and
 * "see 'iomatrix CMD --help'"), an option without its value or with an
 * empty one (naming the value the usage shows), a value given to a flag.
 * value points into argv.
 */
struct optspec_parse {
	const struct command_spec *c;
	int argc;
	char **argv;
	int i;                           /* the next argument */
	bool operands;                   /* after "--" */
	const struct option_spec *opt;   /* out */
	const char *value;               /* out */
};
int optspec_next(struct optspec_parse *p);

/*
 * Completion, for completion/iomatrix.bash: words are what follows
 * "iomatrix" on the command line up to and including the word being
 * completed (words[n - 1], possibly empty); cmds are the n_cmds commands.
 * Prints to f either the candidate words, one per line (a command name, an
 * option of the command, a value from the table), or one directive line:
 * "@dir", "@file" or "@suite" (let bash complete paths); nothing when there
 * is nothing to offer.
 */
void optspec_complete(FILE *f, const struct command_spec *const *cmds, size_t n_cmds,
		      int n, char **words);

#endif
