/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_COMPAT_H
#define RIFL_COMPAT_H

/**
 * \ingroup rifl-core
 * \file
 * \brief Version shims: one spelling in the module for the ns-3 APIs that
 *        changed across the releases it builds with.
 *
 * The module is written against ns-3.37 and builds, through this header, with
 * the older waf-based releases (3.31 .. 3.35, wscript-compat/) and with newer
 * CMake releases (3.38 and later). Each shim says which releases need which
 * spelling. Where C++ can tell the API apart itself (member detection), the
 * shim does so and no version number is involved; otherwise it uses
 * RIFL_NS3_VERSION_MINOR, found as follows (first match wins):
 *
 *  1. RIFL_NS3_VERSION_MINOR given on the command line (-DRIFL_NS3_VERSION_MINOR=35);
 *  2. ns3/version-defines.h (installed ns-3 such as Debian's libns3-dev, and
 *     source trees configured with --enable-build-version / NS3_ENABLE_BUILD_VERSION):
 *     its NS3_VERSION_MINOR;
 *  3. PROJECT_SOURCE_PATH defined (ns-3's own CMake build, 3.36 and later,
 *     defines it for every target): a CMake tree, told apart by headers that
 *     appeared or went away: ns3/val-array.h (new in 3.38) -> 38,
 *     ns3/neighbor-cache-helper.h (new in 3.37) -> 37, otherwise 36;
 *  4. otherwise: a waf-based tree, ns-3 <= 3.35 -> 35.
 *
 * Shims (the module's code and tests use only the right-hand spellings):
 *
 * | ns-3 API                         | <= 3.35 (waf)                | 3.36 .. 3.37          | newer
 * | shim |
 * |----------------------------------|------------------------------|-----------------------|------------------------------|------|
 * | test-case duration               | TestCase::QUICK              | TestCase::QUICK       |
 * TestCase::Duration::QUICK (scoped enum after 3.40; detected by member) | #RIFL_TEST_QUICK,
 * #RIFL_TEST_EXTENSIVE, #RIFL_TEST_TAKES_FOREVER | | test-suite type                  |
 * TestSuite::UNIT              | TestSuite::UNIT       | TestSuite::Type::UNIT (scoped enum) |
 * #RIFL_TEST_UNIT, #RIFL_TEST_SYSTEM | | Ptr truthiness                   | safe-bool operator
 * Tester*   | 3.37: explicit operator bool | explicit operator bool, Tester* gone | RiflPtrValid()
 * | | lambda / std::function to Callback | Callback(functor, bool, bool) | Callback(std::function)
 * | same as 3.36 | RiflMakeCallback() | | lambda / std::function as event  | function or member
 * pointers only | any callable     | any callable                 | RiflScheduleFunction() | | is
 * an event still to run         | EventId::IsRunning()         | EventId::IsRunning()  |
 * EventId::IsPending() (IsRunning deprecated; detected by member) | RiflEventPending() |
 */

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <functional>
#include <type_traits>
#include <utility>

#if defined(RIFL_NS3_VERSION_MINOR)
// Given by the user.
#elif __has_include("ns3/version-defines.h")
#include "ns3/version-defines.h"
#define RIFL_NS3_VERSION_MINOR NS3_VERSION_MINOR
#elif defined(PROJECT_SOURCE_PATH)
#if __has_include("ns3/val-array.h")
#define RIFL_NS3_VERSION_MINOR 38
#elif __has_include("ns3/neighbor-cache-helper.h")
#define RIFL_NS3_VERSION_MINOR 37
#else
#define RIFL_NS3_VERSION_MINOR 36
#endif
#else
#define RIFL_NS3_VERSION_MINOR 35
#endif

/**
 * \def RIFL_NS3_VERSION_MINOR
 * \ingroup rifl-core
 * \brief The minor version of the ns-3 (3.x) the module is compiled against,
 *        as far as the shims need it (see rifl-compat.h for how it is found).
 */

/**
 * \ingroup rifl-core
 * \brief True if the ns-3 the module is compiled against is 3.36 or later
 *        (variadic, std::function-based Callback and events).
 */
#define RIFL_NS3_HAS_FUNCTIONAL_CALLBACKS (RIFL_NS3_VERSION_MINOR >= 36)

namespace ns3
{
/// \ingroup rifl-core
/// \brief Implementation of the version shims (see rifl-compat.h).
namespace rifl_compat
{

/// \brief Whether \p T has a nested type Duration (TestCase after 3.40: scoped enum).
template <typename T, typename = void> struct HasScopedDuration : std::false_type
{
};

/// \brief Whether \p T has a nested type Duration: yes.
template <typename T>
struct HasScopedDuration<T, std::void_t<typename T::Duration>> : std::true_type
{
};

/**
 * \brief The test-case durations of \p T (ns3::TestCase), unscoped:
 *        TestCase::QUICK, as in ns-3 <= 3.40.
 * \tparam T ns3::TestCase.
 */
template <typename T, bool scoped = HasScopedDuration<T>::value> struct TestDurations
{
    static constexpr auto QUICK = T::QUICK;                 //!< quick test case
    static constexpr auto EXTENSIVE = T::EXTENSIVE;         //!< extensive test case
    static constexpr auto TAKES_FOREVER = T::TAKES_FOREVER; //!< very long test case
};

/**
 * \brief The test-case durations of \p T, scoped: TestCase::Duration::QUICK,
 *        as in the releases after 3.40.
 * \tparam T ns3::TestCase.
 */
template <typename T> struct TestDurations<T, true>
{
    static constexpr auto QUICK = T::Duration::QUICK;                 //!< quick test case
    static constexpr auto EXTENSIVE = T::Duration::EXTENSIVE;         //!< extensive test case
    static constexpr auto TAKES_FOREVER = T::Duration::TAKES_FOREVER; //!< very long test case
};

/// \brief Whether \p E has IsPending() (EventId after IsRunning() was deprecated).
template <typename E, typename = void> struct HasIsPending : std::false_type
{
};

/// \brief Whether \p E has IsPending(): yes.
template <typename E>
struct HasIsPending<E, std::void_t<decltype(std::declval<const E&>().IsPending())>> : std::true_type
{
};

/**
 * \ingroup rifl-core
 * \brief Run a function object (the event of RiflScheduleFunction on ns-3 <= 3.35).
 * \param f the function.
 */
inline void
InvokeFunction(std::function<void()> f)
{
    f();
}

} // namespace rifl_compat

/**
 * \ingroup rifl-core
 * \brief Whether a Ptr holds an object.
 *
 * ns-3 <= 3.36 has the safe-bool `operator Tester*` (so `bool b = p;`
 * compiles), 3.37 adds `explicit operator bool` and deprecates Tester, later
 * releases drop Tester: only contextual conversions (`if (p)`) work in all of
 * them. Use this where a bool value is needed (test macros, return values).
 * \tparam T the pointee type.
 * \param p the pointer.
 * \return true if \p p is not null.
 */
template <typename T>
inline bool
RiflPtrValid(const Ptr<T>& p)
{
    return PeekPointer(p) != nullptr;
}

/**
 * \ingroup rifl-core
 * \brief Whether an event is still to run (scheduled, neither run nor cancelled).
 *
 * EventId::IsRunning() in ns-3.37 and the releases around it; later releases
 * name it IsPending() and deprecate IsRunning(). Which one exists is detected
 * by member, so the exact release does not matter.
 * \tparam E ns3::EventId.
 * \param e the event.
 * \return true if the event is pending.
 */
template <typename E>
inline bool
RiflEventPending(const E& e)
{
    if constexpr (rifl_compat::HasIsPending<E>::value)
    {
        return e.IsPending();
    }
    else
    {
        return e.IsRunning();
    }
}

/**
 * \ingroup rifl-core
 * \brief Make a Callback from a lambda, std::function or any function object.
 *
 * ns-3 >= 3.36 (std::function-based Callback) builds it from a std::function;
 * ns-3 <= 3.35 (Callback of up to 9 arguments) from the functor constructor
 * Callback(functor, bool, bool).
 * \tparam R the return type.
 * \tparam Args the argument types.
 * \tparam F the function object's type (deduced).
 * \param f the function object (copied).
 * \return the callback.
 */
template <typename R, typename... Args, typename F>
inline Callback<R, Args...>
RiflMakeCallback(F f)
{
#if RIFL_NS3_HAS_FUNCTIONAL_CALLBACKS
    return Callback<R, Args...>(std::function<R(Args...)>(std::move(f)));
#else
    return Callback<R, Args...>(std::function<R(Args...)>(std::move(f)), true, true);
#endif
}

/**
 * \ingroup rifl-core
 * \brief Schedule a lambda, std::function or any function object as an event.
 *
 * ns-3 >= 3.36 schedules any callable; ns-3 <= 3.35 only function and
 * member-function pointers, so there the function object is the bound
 * argument of a plain function.
 * \param delay the delay from now.
 * \param f the function (copied).
 * \return the event.
 */
inline EventId
RiflScheduleFunction(const Time& delay, std::function<void()> f)
{
#if RIFL_NS3_HAS_FUNCTIONAL_CALLBACKS
    return Simulator::Schedule(delay, std::move(f));
#else
    return Simulator::Schedule(delay, &rifl_compat::InvokeFunction, f);
#endif
}

} // namespace ns3

/**
 * \ingroup rifl-core
 * \brief The QUICK test-case duration: TestCase::QUICK (ns-3 <= 3.40) or
 *        TestCase::Duration::QUICK (later), chosen by member detection.
 *        Needs ns3/test.h included first (test files do).
 */
#define RIFL_TEST_QUICK         (::ns3::rifl_compat::TestDurations<::ns3::TestCase>::QUICK)

/**
 * \ingroup rifl-core
 * \brief The EXTENSIVE test-case duration (see #RIFL_TEST_QUICK). Files using
 *        it get a second ctest entry, `<suite>-extensive`.
 */
#define RIFL_TEST_EXTENSIVE     (::ns3::rifl_compat::TestDurations<::ns3::TestCase>::EXTENSIVE)

/**
 * \ingroup rifl-core
 * \brief The TAKES_FOREVER test-case duration (see #RIFL_TEST_QUICK).
 */
#define RIFL_TEST_TAKES_FOREVER (::ns3::rifl_compat::TestDurations<::ns3::TestCase>::TAKES_FOREVER)

/**
 * \ingroup rifl-core
 * \brief The UNIT test-suite type. TestSuite::Type::UNIT names it in every
 *        release: a plain enum in ns-3 <= 3.40 (qualified by its enum name,
 *        valid since C++11), a scoped enum later, where TestSuite::UNIT is gone.
 */
#define RIFL_TEST_UNIT          (::ns3::TestSuite::Type::UNIT)

/**
 * \ingroup rifl-core
 * \brief The SYSTEM test-suite type (see #RIFL_TEST_UNIT).
 */
#define RIFL_TEST_SYSTEM        (::ns3::TestSuite::Type::SYSTEM)

#endif /* RIFL_COMPAT_H */
