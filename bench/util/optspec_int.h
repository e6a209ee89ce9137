/*
 * optspec_int.h - what the three files of the option tables share
 * (optspec.c parses, optspec_help.c prints usage and help,
 * optspec_complete.c completes and dumps); not for commands, which use
 * optspec.h.
 */
#ifndef IOMATRIX_OPTSPEC_INT_H
#define IOMATRIX_OPTSPEC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* optspec.h's types, by name only: optspec.c includes this header, so
 * including optspec.h here would loop the two rooms. */
struct command_spec;
struct option_spec;
struct optlist;

/* Is o shown in (and allowed with) form? */
bool optspec_in_form(const struct option_spec *o, int form);

/* The index of word in the space-separated list (len bytes of word), or
 * -1. */
int optspec_word_index(const char *list, const char *word, size_t len);

/* The number of forms of c (at least 1). */
int optspec_nforms(const struct command_spec *c);

/* The operands form takes: *min of them, at most *max (SIZE_MAX: any). */
void optspec_form_count(const struct command_spec *c, int form, size_t *min, size_t *max);

/* What o takes, for a message: "a whole number from 1 to 4096". */
void optspec_takes(const struct option_spec *o, char *buf, size_t len);

/* v checked against o's kind, range and check: 0, or -1 with what o takes
 * in why. */
int optspec_value_ok(const struct option_spec *o, const char *v, char *why, size_t len);

/* optspec_parse() but the test hook; given[OPTSPEC_MAX_ROWS]: which rows
 * were on the command line. */
int optspec_parse_in(const struct command_spec *c, int argc, char **argv, void *opts,
		     struct optlist *operands, bool *given);

/* What a parse stored, in the table's order: "CMD --x=V --flag --
 * OPERAND...", values as stored (parse_only, --parse-lines). */
void optspec_print_parsed(FILE *f, const struct command_spec *c, const bool *given,
			  const void *opts, const struct optlist *ops);

#endif
