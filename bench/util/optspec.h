/*
 * optspec.h - a command's options as one table, as fio's fio_options[]: each
 * option is one row (its spellings, the kind of value it takes, the range,
 * a default, its help line and where the parsed value goes), and one
 * parser, optspec_parse(), walks it.  From the rows come: parsing ("--x V",
 * "--x=V", aliases, repeats), the check of each value against its kind and
 * range (exit 2 naming the option, the value and what it takes), the "did
 * you mean" of a misspelt option, "takes no value" for a flag given "=V",
 * the "usage:" lines and the option help of `iomatrix CMD --help`, the
 * command's lines in `iomatrix --help`, the man page (man/mkman.sh builds it
 * from those help texts), the bash completion (completion/ asks `iomatrix
 * --complete`) and the tests that go over every option of every command
 * (`iomatrix --dump-options`).  A command's prose (what it does, its exit
 * codes) is a field of its command_spec too, so `CMD --help` is printed
 * here and no cmd_*.c holds help text.
 *
 * Adding an option is one row in its command's table and one field in the
 * command's struct; the command reads the field.  Rows that several
 * commands share (the suite's --device and --scale, run's options that
 * reproduce hands on) are a table of their own that each includes with
 * OPT_INCLUDE().
 *
 * Errors: optspec_parse() prints one line to stderr and returns -1 (the
 * command exits 2); nothing is read or written before it returns.
 */
#ifndef IOMATRIX_OPTSPEC_H
#define IOMATRIX_OPTSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The kind of value an option takes: how it is checked, what it is stored
 * as (the C type of its field, checked against OPT_AT's), what completes
 * it and the value's name in usage when the row gives none. */
enum optkind {
	OPTK_FLAG,      /* no value                        bool: true when given */
	OPTK_STRING,    /* any text, not empty; a range
			 * bounds its length               const char * ("TEXT") */
	OPTK_PAIR,      /* A=B, both sides not empty      const char * ("A=B") */
	OPTK_DIR,       /* a directory                     const char * ("DIR") */
	OPTK_FILE,      /* a file                          const char * ("FILE") */
	OPTK_SUITE,     /* a suite, *.yaml or *.yml        const char * ("SUITE.yaml") */
	OPTK_WORD,      /* one of .words                   const char *, or int: the
			 * word's index in .words ("a|b|c") */
	OPTK_WORDS,     /* a comma-separated list of .words
			 * ("md,html")                     const char * ("LIST") */
	OPTK_INT,       /* a whole number                  int ("N") */
	OPTK_NUMBER,    /* a decimal number: no hex, inf
			 * or nan                          double ("F") */
	OPTK_PERCENT,   /* a decimal number, '%' optional  double ("PCT") */
	OPTK_SIZE,      /* 4k, 1MiB, 512 (units.h)          uint64_t bytes ("SIZE") */
	OPTK_DURATION,  /* 500ms, 30s, 2m (units.h)        uint64_t ns ("TIME") */
	OPTK_INCLUDE,   /* not an option: .include's rows, their fields at
			 * .off in this table's struct */
};

/* A repeated option's values in the order given (OPT_REPEAT rows), and a
 * command's operands: v is the parser's (optspec_release), the strings
 * point into argv. */
struct optlist {
	const char **v;
	size_t n;
};

/* The C type of a field (OPT_AT() finds it; the parser stores by kind and
 * refuses a table whose kind and field disagree). */
enum optctype { OPTT_NONE, OPTT_BOOL, OPTT_STR, OPTT_INT, OPTT_DOUBLE, OPTT_U64, OPTT_LIST };

#define OPTSPEC_CTYPE(x) _Generic((x), bool: OPTT_BOOL, const char *: OPTT_STR, \
	int: OPTT_INT, double: OPTT_DOUBLE, uint64_t: OPTT_U64, struct optlist: OPTT_LIST)
/* Where a row's value goes: field f of struct type T (the struct the
 * command hands optspec_parse(), or the one an OPT_INCLUDE row points at). */
#define OPT_AT(T, f) .off = offsetof(T, f), .ctype = OPTSPEC_CTYPE(((T *)0)->f)
/* The rows of table tab, their fields in the struct at field f of T. */
#define OPT_INCLUDE(tab, T, f) { .kind = OPTK_INCLUDE, .include = (tab), .off = offsetof(T, f) }

/* Row flags. */
#define OPT_REPEAT   1u  /* may be given again; its field is a struct optlist
			  * of every value: "[--x V]..." */
#define OPT_REQUIRED 2u  /* must be given (when its form is the one used);
			  * usage shows it without brackets */
#define OPT_HIDDEN   4u  /* not in usage, help or completion */
#define OPT_OPERAND  8u  /* given, it stands for the first operand, which may
			  * then be left out (run --resume SETDIR: the suite
			  * is the set's) */

/* The range of a number (of a string: its length), bounds included or not:
 * OPT_FROM_TO(1, 4096) is 1 <= v <= 4096, OPT_ABOVE_BELOW(0, 1000) is
 * 0 < v < 1000; OPT_ABOVE(0) and OPT_FROM(0) have no upper bound. */
#define OPTB_MIN      1u
#define OPTB_MIN_OPEN 2u
#define OPTB_MAX      4u
#define OPTB_MAX_OPEN 8u
#define OPT_FROM_TO(lo, hi)     .min = (lo), .max = (hi), .bounds = OPTB_MIN | OPTB_MAX
#define OPT_ABOVE_TO(lo, hi)    .min = (lo), .max = (hi), .bounds = OPTB_MIN_OPEN | OPTB_MAX
#define OPT_FROM_BELOW(lo, hi)  .min = (lo), .max = (hi), .bounds = OPTB_MIN | OPTB_MAX_OPEN
#define OPT_ABOVE_BELOW(lo, hi) .min = (lo), .max = (hi), .bounds = OPTB_MIN_OPEN | OPTB_MAX_OPEN
#define OPT_ABOVE(lo)           .min = (lo), .bounds = OPTB_MIN_OPEN
#define OPT_FROM(lo)            .min = (lo), .bounds = OPTB_MIN

/* Usage forms an option is shown in (bit i: form i).  0 means form 0. */
#define OPT_FORM(i) (1u << (i))
#define OPT_ALL_FORMS 0xffu

struct option_spec {
	const char *name;   /* "--device", or "-o": the spelling usage shows */
	const char *alias;  /* the other spellings the parser takes,
			     * space-separated ("--out --output"); NULL */
	enum optkind kind;
	const char *arg;    /* the value's name in usage ("NAME=PATH"); NULL:
			     * the kind's */
	size_t off;         /* OPT_AT(): where the value goes */
	unsigned char ctype;/* OPT_AT(): the C type there */
	unsigned char bounds;  /* OPTB_*: which of min and max hold */
	unsigned flags;     /* OPT_REPEAT, OPT_REQUIRED, OPT_HIDDEN, OPT_OPERAND */
	unsigned forms;     /* OPT_FORM() bits; 0: form 0 only */
	double min, max;    /* the range (OPT_FROM_TO() and friends) */
	const char *words;  /* OPTK_WORD, OPTK_WORDS: the words, space-separated */
	const char *def;    /* the value when not given, stored before argv is
			     * read and shown as "(default: X)" in help; NULL */
	const char *help;   /* what it does, for --help (wrapped there) */
	const char *section;/* a heading --help prints before this row; NULL */
	/* a check beyond the kind's: NULL when v is fine, else what the
	 * option takes ("YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC)") */
	const char *(*check)(const char *v);
	const char *example;/* a value it takes, for the tests (--dump-options),
			     * where the kind's own would not do (a .check) */
	const struct option_spec *include; /* OPTK_INCLUDE: the rows */
};

/* A command_spec's option table and the struct T its rows fill. */
#define OPTSPEC_OPTS(tab, T) .opts = (tab), .opts_size = sizeof(T)

#define OPTSPEC_MAX_FORMS 4
#define OPTSPEC_MAX_ROWS 64   /* rows of one command, includes flattened */

/* Stringify a number macro for help text: "at least " OPTSPEC_STR(N). */
#define OPTSPEC_STR_(x) #x
#define OPTSPEC_STR(x) OPTSPEC_STR_(x)

struct command_spec {
	const char *name;   /* NULL: the program itself (main's options) */
	/* the operands of each usage form ("SUITE.yaml", "fio FILE.json...");
	 * the list ends at the first NULL; an empty string is a form with no
	 * operands.  They are also the rule for how many operands the parser
	 * takes: a word in brackets may be left out, a word ending "..." may be
	 * repeated ("[DIR...]": any number, "SET...": one or more). */
	const char *forms[OPTSPEC_MAX_FORMS + 1];
	const char *note;   /* after the synopsis in `iomatrix --help` only */
	const char *about;  /* `CMD --help`: the paragraphs between the usage
			     * lines and the options ("\n\n" between them) */
	const char *epilog; /* `CMD --help`: after the options; NULL */
	void (*more)(FILE *f); /* `CMD --help`: printed last, text made at run
				* time (the suite key reference); NULL */
	const struct option_spec *opts; /* ends with a row { NULL } */
	/* the struct opts's rows fill (OPTSPEC_OPTS()): its size, and the
	 * values it starts from before the defaults of the rows (NULL:
	 * zeroes); the dispatcher (cmd/commands.c) makes one for each call */
	size_t opts_size;
	const void *opts_init;
	/* the first operand is one of these and picks the form of the same
	 * index ("fio sysbench csv"): the other forms' options are refused */
	const char *first_words;
	const char *first_what;  /* what that word is, for messages ("kind") */
	enum optkind operand;    /* what completes the other operands:
				  * OPTK_DIR, OPTK_FILE, OPTK_SUITE, or none */
	bool hidden;             /* not offered by completion (agent) */
};

/*
 * Parse argv (argv[0] is the command's name) by c: every option's value
 * into its field of opts (the struct c's rows name with OPT_AT; the
 * defaults first), every operand into *operands.  Checks each value by its
 * row, each option's form (first_words), the required options and the
 * number of operands by c's forms.  0, or -1 with one line on stderr
 * (release all the same).  With the test hook's setting parse_only
 * (testhook.h) it prints what it parsed on stdout and exits 0 instead of
 * returning: the tests of every option parse without running anything.
 */
int optspec_parse(const struct command_spec *c, int argc, char **argv, void *opts,
		  struct optlist *operands);

/* The table of c is one the parser can walk: each field's C type fits its
 * row's kind, each default is a value of its row, each row has help, no
 * spelling is taken twice, a row with one of -o, --out and --output has
 * all three.  0, or -1 with the row named on stderr (optspec_parse()
 * checks it first; tests/unit/test_optspec.c checks every command's). */
int optspec_check_table(const struct command_spec *c);

/* Is v "-", standard output, which an output option may take in place of
 * a path (compare -o -)?  The one place that spelling is compared. */
bool optspec_is_stdout(const char *v);

/* A struct for c's options to be parsed into: c->opts_size bytes holding
 * c->opts_init (zeroes without it), or, for a table without OPTSPEC_OPTS,
 * zeroed room for every field its rows name.  The caller free()s it after
 * optspec_release(); NULL when out of memory. */
void *optspec_opts_new(const struct command_spec *c);

/* Free what optspec_parse() allocated (the optlists of opts, operands). */
void optspec_release(const struct command_spec *c, void *opts, struct optlist *operands);

/* `iomatrix CMD --help`: the usage lines, the about text, the options with
 * their help (wrapped at 79 columns), the epilog and more(). */
void optspec_help(FILE *f, const struct command_spec *c);

/* The "usage:" lines of c, one per form ("usage: iomatrix NAME ..." then
 * "       iomatrix NAME ..."), wrapped before an option so that no line is
 * wider than 79 columns, continuation lines indented under the operands. */
void optspec_usage(FILE *f, const struct command_spec *c);

/* c's lines in `iomatrix --help`: "  iomatrix NAME ..." per form (then
 * the note), wrapped at 79 columns with continuation lines indented by
 * six. */
void optspec_synopsis(FILE *f, const struct command_spec *c);

/* Row i of c's options, OPT_INCLUDE rows flattened in place, or NULL past
 * the last: for (k = 0; (o = optspec_row(c, k, NULL)); k++).  *off (may be
 * NULL) gets the offset to add to the row's own .off. */
const struct option_spec *optspec_row(const struct command_spec *c, size_t i, size_t *off);

/* The option of c spelled arg (its name or an alias), or NULL. */
const struct option_spec *optspec_find(const struct command_spec *c, const char *arg);

/* "iomatrix: unknown option 'ARG' (did you mean '--x'?); see 'iomatrix
 * CMD --help'" on stderr, the nearest spelling of c's when one is near. */
void optspec_unknown(const struct command_spec *c, const char *arg);

/* The value's name of o in usage: o->arg, or its kind's. */
const char *optspec_arg(const struct option_spec *o);

/*
 * Completion, for completion/iomatrix.bash: words are what follows
 * "iomatrix" on the command line up to and including the word being
 * completed (words[n - 1], possibly empty); top is the program's own
 * table (--help, --version), cmds are the n_cmds commands.
 * Prints to f either the candidate words, one per line (a command name or
 * a program option, an option of the command, a value from the table),
 * or one directive line:
 * "@dir", "@file" or "@suite" (let bash complete paths); nothing when there
 * is nothing to offer.
 */
void optspec_complete(FILE *f, const struct command_spec *top,
		      const struct command_spec *const *cmds, size_t n_cmds, int n, char **words);

/*
 * The tables for the tests (`iomatrix --dump-options`): one line per
 * option of every command, tab-separated:
 *   COMMAND  SPELLINGS  VALUE  BAD  OUTSIDE  BASE
 * SPELLINGS the name then the aliases, space-separated; VALUE a value it
 * takes ("-" for a flag); BAD a value of the wrong kind and OUTSIDE one
 * out of range ("-" when there is none); BASE the operands and required
 * options of the option's form that a parse needs, space-separated.
 */
void optspec_dump(FILE *f, const struct command_spec *const *cmds, size_t n_cmds);

/*
 * For the tests (`iomatrix --parse-lines`): each line of in is a command
 * line, tab-separated words from the command's name on; each is parsed by
 * its command's table into a scratch struct, nothing else run, and out
 * gets one line for each: "0<TAB>CMD --x=V --flag -- OPERAND..." (what
 * it parsed, values as stored: the test hook's parse_only prints the same)
 * or "2<TAB>" and the message optspec_parse() printed.  A test of every
 * option then costs one process, not hundreds.
 */
void optspec_parse_lines(FILE *in, FILE *out, const struct command_spec *const *cmds,
			 size_t n_cmds);

#endif
