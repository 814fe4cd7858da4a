/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the version shims in rifl-compat.h: each shim against the ns-3 it
 * is compiled with, and the member-detected ones against stand-in types with
 * the other releases' spellings (a scoped TestCase::Duration, an EventId with
 * IsPending()).
 */

#include "ns3/core-module.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"

#include <string>
#include <type_traits>
#include <vector>

using namespace ns3;

namespace
{

/// Stand-in for TestCase in releases with the scoped enum TestCase::Duration.
struct ScopedDurationTestCase
{
    /// The scoped durations.
    enum class Duration
    {
        QUICK = 1,         //!< quick
        EXTENSIVE = 2,     //!< extensive
        TAKES_FOREVER = 3, //!< very long
    };
};

/// Stand-in for TestCase in releases with the plain enum (TestCase::QUICK).
struct PlainDurationTestCase
{
    /// The plain durations.
    enum TestDuration
    {
        QUICK = 4,         //!< quick
        EXTENSIVE = 5,     //!< extensive
        TAKES_FOREVER = 6, //!< very long
    };
};

/// Stand-in for an EventId of the releases that renamed IsRunning() to IsPending().
struct PendingEvent
{
    bool pending; //!< the answer
    /// \return pending
    bool IsPending() const
    {
        return pending;
    }
    /// \return the opposite (must not be called when IsPending() exists)
    bool IsRunning() const
    {
        return !pending;
    }
};

/// Stand-in for an EventId with only IsRunning().
struct RunningEvent
{
    bool running; //!< the answer
    /// \return running
    bool IsRunning() const
    {
        return running;
    }
};

/// Records the calls of the scheduled functions.
std::vector<std::string> g_calls;

/**
 * \ingroup rifl-tests
 * \brief Test-enum shims pick the spelling the TestCase type has.
 */
class RiflCompatTestEnumTestCase : public TestCase
{
  public:
    RiflCompatTestEnumTestCase()
        : TestCase("test-duration and test-type shims pick each release's spelling")
    {
    }

  private:
    /**
     * \brief Check the duration shims against the native names of \p TC
     *        (a template, so that only the spelling \p TC has is compiled).
     * \tparam TC ns3::TestCase.
     */
    template <typename TC> void CheckNative()
    {
        if constexpr (rifl_compat::HasScopedDuration<TC>::value)
        {
            NS_TEST_ASSERT_MSG_EQ((RIFL_TEST_QUICK == TC::Duration::QUICK), true, "QUICK");
            NS_TEST_ASSERT_MSG_EQ((RIFL_TEST_EXTENSIVE == TC::Duration::EXTENSIVE), true,
                                  "EXTENSIVE");
            NS_TEST_ASSERT_MSG_EQ((RIFL_TEST_TAKES_FOREVER == TC::Duration::TAKES_FOREVER), true,
                                  "TAKES_FOREVER");
        }
        else
        {
            static_assert(std::is_same_v<std::decay_t<decltype(RIFL_TEST_QUICK)>,
                                         std::decay_t<decltype(TC::QUICK)>>,
                          "RIFL_TEST_QUICK has the type AddTestCase takes");
            NS_TEST_ASSERT_MSG_EQ((RIFL_TEST_QUICK == TC::QUICK), true, "QUICK");
            NS_TEST_ASSERT_MSG_EQ((RIFL_TEST_EXTENSIVE == TC::EXTENSIVE), true, "EXTENSIVE");
            NS_TEST_ASSERT_MSG_EQ((RIFL_TEST_TAKES_FOREVER == TC::TAKES_FOREVER), true,
                                  "TAKES_FOREVER");
        }
    }

    void DoRun() override
    {
        using rifl_compat::HasScopedDuration;
        using rifl_compat::TestDurations;
        // The ns-3 this is built with: the shims are its own spelling.
        CheckNative<TestCase>();
        NS_TEST_ASSERT_MSG_EQ((RIFL_TEST_UNIT != RIFL_TEST_SYSTEM), true, "UNIT and SYSTEM differ");
        // Stand-ins with the other spellings.
        NS_TEST_ASSERT_MSG_EQ(HasScopedDuration<ScopedDurationTestCase>::value, true,
                              "scoped Duration detected");
        NS_TEST_ASSERT_MSG_EQ(HasScopedDuration<PlainDurationTestCase>::value, false,
                              "plain TestDuration detected");
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(TestDurations<ScopedDurationTestCase>::QUICK), 1,
                              "scoped QUICK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(TestDurations<ScopedDurationTestCase>::EXTENSIVE), 2,
                              "scoped EXTENSIVE");
        NS_TEST_ASSERT_MSG_EQ(
            static_cast<int>(TestDurations<ScopedDurationTestCase>::TAKES_FOREVER), 3,
            "scoped TAKES_FOREVER");
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(TestDurations<PlainDurationTestCase>::QUICK), 4,
                              "plain QUICK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(TestDurations<PlainDurationTestCase>::EXTENSIVE), 5,
                              "plain EXTENSIVE");
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(TestDurations<PlainDurationTestCase>::TAKES_FOREVER),
                              6, "plain TAKES_FOREVER");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Ptr, Callback, event and EventId shims against the ns-3 in use and stand-ins.
 */
class RiflCompatRuntimeTestCase : public TestCase
{
  public:
    RiflCompatRuntimeTestCase()
        : TestCase("Ptr, Callback, scheduling and EventId shims behave as the native calls")
    {
    }

  private:
    void DoRun() override
    {
        // The version this build detects: version-defines.h's where there is one
        // (Debian's ns-3: 3.37), at least 36 in an ns-3 CMake source tree.
#ifdef NS3_VERSION_MINOR
        NS_TEST_ASSERT_MSG_EQ(RIFL_NS3_VERSION_MINOR, NS3_VERSION_MINOR,
                              "version from ns3/version-defines.h");
#elif defined(PROJECT_SOURCE_PATH)
        NS_TEST_ASSERT_MSG_GT_OR_EQ(RIFL_NS3_VERSION_MINOR, 36, "ns-3 CMake source tree");
#endif

        Ptr<Object> none;
        Ptr<Object> some = CreateObject<Object>();
        Ptr<const Object> constSome = some;
        NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(none), false, "null Ptr");
        NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(some), true, "non-null Ptr");
        NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(constSome), true, "non-null Ptr to const");

        int sum = 0;
        Callback<void, int, int> cb = RiflMakeCallback<void, int, int>(
            [&sum](int a, int b)
            {
                sum += a * 10 + b;
            });
        cb(4, 2);
        NS_TEST_ASSERT_MSG_EQ(sum, 42, "callback from a lambda");
        Callback<int, int> twice = RiflMakeCallback<int, int>(std::function<int(int)>(
            [](int x)
            {
                return 2 * x;
            }));
        NS_TEST_ASSERT_MSG_EQ(twice(21), 42, "callback from a std::function, with a result");

        g_calls.clear();
        EventId late = RiflScheduleFunction(
            NanoSeconds(20),
            []
            {
                g_calls.push_back("late@" + std::to_string(Simulator::Now().GetNanoSeconds()));
            });
        EventId early = RiflScheduleFunction(
            NanoSeconds(10),
            []
            {
                g_calls.push_back("early@" + std::to_string(Simulator::Now().GetNanoSeconds()));
            });
        EventId cancelled = RiflScheduleFunction(NanoSeconds(15),
                                                 []
                                                 {
                                                     g_calls.push_back("cancelled");
                                                 });
        NS_TEST_ASSERT_MSG_EQ(RiflEventPending(late), true, "scheduled: pending");
        Simulator::Cancel(cancelled);
        NS_TEST_ASSERT_MSG_EQ(RiflEventPending(cancelled), false, "cancelled: not pending");
        NS_TEST_ASSERT_MSG_EQ(RiflEventPending(EventId()), false, "empty EventId");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(g_calls.size(), 2u, "two events ran");
        NS_TEST_ASSERT_MSG_EQ(g_calls[0], "early@10", "first event at 10 ns");
        NS_TEST_ASSERT_MSG_EQ(g_calls[1], "late@20", "second event at 20 ns");
        NS_TEST_ASSERT_MSG_EQ(RiflEventPending(early), false, "ran: not pending");
        Simulator::Destroy();

        // Stand-ins: IsPending() preferred when it exists.
        NS_TEST_ASSERT_MSG_EQ(RiflEventPending(PendingEvent{true}), true, "IsPending used");
        NS_TEST_ASSERT_MSG_EQ(RiflEventPending(PendingEvent{false}), false, "IsPending used");
        NS_TEST_ASSERT_MSG_EQ(RiflEventPending(RunningEvent{true}), true, "IsRunning used");
        NS_TEST_ASSERT_MSG_EQ(RiflEventPending(RunningEvent{false}), false, "IsRunning used");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The rifl-compat test suite.
 */
class RiflCompatTestSuite : public TestSuite
{
  public:
    RiflCompatTestSuite()
        : TestSuite("rifl-compat", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflCompatTestEnumTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflCompatRuntimeTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite's instance.
RiflCompatTestSuite g_riflCompatTestSuite;

} // namespace
