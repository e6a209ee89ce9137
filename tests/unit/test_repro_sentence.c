/*
 * test_repro_sentence.c - the headline of a reproduction follows its
 * verdicts ("Not reproduced within ±10 %" headed a
 * reproduction whose every verdict was inconclusive).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "reproduce/repro.h"

static char *sentence(size_t same, size_t slower, size_t faster, size_t inconc, size_t few)
{
	struct repro p;
	memset(&p, 0, sizeof(p));
	p.tol_pct = 10;
	p.count[RV_SAME] = same;
	p.count[RV_SLOWER] = slower;
	p.count[RV_FASTER] = faster;
	p.count[RV_INCONC] = inconc;
	p.count[RV_FEW] = few;
	p.n = same + slower + faster + inconc + few;
	return repro_sentence(&p);
}

static void starts(char *s, const char *head)
{
	assert_non_null(s);
	if (strncmp(s, head, strlen(head)))
		fail_msg("'%s' does not start with '%s'", s, head);
	free(s);
}

static void test_headline_follows_verdicts(void **state)
{
	(void)state;
	starts(sentence(0, 0, 0, 2, 0), "Undecided within ±10 %: 0 of 2 workloads reproduced "
	       "and none shown slower or faster; 2 inconclusive");
	starts(sentence(1, 0, 0, 1, 1), "Undecided within ±10 %: 1 of 3 workloads reproduced");
	starts(sentence(0, 0, 0, 0, 1), "Undecided within ±10 %: 0 of 1 workload reproduced");
	starts(sentence(0, 1, 0, 1, 0), "Not reproduced within ±10 %: 0 of 2 workloads "
	       "reproduced, 1 slower, 0 faster, 1 inconclusive");
	starts(sentence(1, 0, 1, 0, 0), "Not reproduced within ±10 %");
	starts(sentence(2, 0, 0, 0, 0), "Reproduced: all 2 workloads within ±10 %");
	char *s = sentence(0, 0, 0, 2, 0);
	assert_null(strstr(s, "Not reproduced"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headline_follows_verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
