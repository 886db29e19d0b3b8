/* oracle_check: which outcomes are valid, and --valid-exit's list. */
#include "harness.h"
#include "run/oracle_check.h"

TEST(oracle_exit_codes_parse_and_decide_validity)
{
    struct oracle_exits e;
    CHECK(oracle_exits_parse("0", &e));
    CHECK(oracle_valid("exit:0", &e));
    CHECK(!oracle_valid("exit:1", &e));
    CHECK(!oracle_valid("timeout", &e));
    CHECK(!oracle_valid("signal:SIGSEGV", &e));
    CHECK(!oracle_valid("error:no such file", &e));
    CHECK(oracle_exits_parse("1,3,255", &e));
    CHECK(!oracle_valid("exit:0", &e));
    CHECK(oracle_valid("exit:1", &e) && oracle_valid("exit:3", &e) && oracle_valid("exit:255", &e));
    CHECK(!oracle_valid("exit:2", &e));
    CHECK(!oracle_valid("exit:", &e));
    CHECK(!oracle_valid("exit:1x", &e));
    CHECK(!oracle_exits_parse("256", &e));
    CHECK(!oracle_exits_parse("", &e));
    CHECK(!oracle_exits_parse("0,", &e));
    CHECK(!oracle_exits_parse(",0", &e));
    CHECK(!oracle_exits_parse("-1", &e));
    CHECK(!oracle_exits_parse("0 1", &e));
}
