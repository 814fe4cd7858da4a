/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The rifl module's own test runner. Debian's ns-3 ships no test-runner, so
 * this program links the module's test suites and hands the command line to
 * ns3::TestRunner::Run (options as ns-3's test-runner: --suite=NAME,
 * --fullness=QUICK|EXTENSIVE|TAKES_FOREVER, --list, --verbose, ...).
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
