/*
 * testutil.h - included by every cmocka unit test.
 */
#ifndef IOMATRIX_TESTUTIL_H
#define IOMATRIX_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#endif
