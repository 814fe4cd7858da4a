/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Helpers shared by the ns3rifl binding sources.
 */

#ifndef NS3RIFL_BINDING_UTIL_H
#define NS3RIFL_BINDING_UTIL_H

#include "ns3/nstime.h"
#include "ns3/scenario-attribute-defaults.h"
#include "ns3/simulator.h"

#include <pybind11/pybind11.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3rifl
{

namespace py = pybind11;

/**
 * \brief One scenario run at a time in the process: ns-3's simulator and the attribute
 *        defaults a run sets are process-wide, so two runs from two threads (the
 *        runners release the GIL) would corrupt each other. A second run while one is
 *        going raises RuntimeError instead.
 */
class RunGuard
{
  public:
    /// \brief Take the process's run, or raise RuntimeError if another thread has it.
    RunGuard()
    {
        bool expected = false;
        if (!Busy().compare_exchange_strong(expected, true))
        {
            throw std::runtime_error(
                "ns3rifl: another simulation is running in this process (ns-3's simulator "
                "and attribute defaults are process-wide, so runs cannot overlap): run "
                "scenarios one after another in a thread, or in separate processes "
                "(ns3rifl.sweep(..., runner=\"process\"))");
        }
    }

    /// \brief Give the run back.
    ~RunGuard()
    {
        Busy() = false;
    }

    RunGuard(const RunGuard&) = delete;
    RunGuard& operator=(const RunGuard&) = delete;

  private:
    /// \return the process-wide flag.
    static std::atomic<bool>& Busy()
    {
        static std::atomic<bool> busy{false};
        return busy;
    }
};

/**
 * \brief Convert an attributes dict into name -> text.
 * \param attributes None or a dict of str -> str/int/float/bool.
 * \return the map (TypeError for a key or value of another type).
 */
inline std::map<std::string, std::string>
ToAttributeMap(const py::object& attributes)
{
    std::map<std::string, std::string> out;
    if (attributes.is_none())
    {
        return out;
    }
    if (!py::isinstance<py::dict>(attributes))
    {
        throw py::type_error("attributes must be a dict of \"ns3::Class::Attribute\" -> value");
    }
    for (auto item : attributes.cast<py::dict>())
    {
        if (!py::isinstance<py::str>(item.first))
        {
            throw py::type_error("attributes: every key must be a str such as "
                                 "\"ns3::RiflNetDevice::FrameSize\"");
        }
        const std::string key = item.first.cast<std::string>();
        const py::handle v = item.second;
        if (py::isinstance<py::bool_>(v))
        {
            out[key] = v.cast<bool>() ? "true" : "false";
        }
        else if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)
                 || py::isinstance<py::str>(v))
        {
            out[key] = py::str(v).cast<std::string>();
        }
        else
        {
            throw py::type_error("attributes[\"" + key
                                 + "\"] must be a str, int, float or bool, not "
                                 + std::string(py::str(v.get_type().attr("__name__"))));
        }
    }
    return out;
}

/**
 * \brief An integer keyword as the caller gave it (None, an int, a NumPy integer, or
 *        something else to refuse): the function checks it with ToUInt() and reports a
 *        bad value naming the keyword, where pybind11's own uint32_t/uint64_t conversion
 *        fails with a generic "incompatible function arguments" (negative values) and
 *        refuses NumPy integers. Signatures show it as "int".
 */
struct IntArg
{
    py::object value; //!< the argument (None where the caller left it out)

    /// \return whether the caller gave the keyword (it is not None).
    bool Given() const
    {
        return !value.is_none();
    }
};

/**
 * \brief The name of a value's type, for messages.
 * \param o the value.
 * \return e.g. "float".
 */
inline std::string
TypeName(const py::handle& o)
{
    return py::str(o.get_type().attr("__name__")).cast<std::string>();
}

/**
 * \brief An integer keyword checked against [lo, hi].
 *
 * Takes a Python int or any integer with __index__ (numpy.int64, ...); refuses bools
 * (also numpy.bool_) and floats with TypeError, values outside the range with
 * ValueError, naming the keyword and the range either way.
 *
 * \param o the value.
 * \param name the keyword, for the message.
 * \param lo the lowest value allowed.
 * \param hi the highest value allowed.
 * \return the value.
 */
inline uint64_t
ToUInt(const py::handle& o, const std::string& name, uint64_t lo, uint64_t hi)
{
    const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    const std::string type = TypeName(o);
    if (py::isinstance<py::bool_>(o) || type == "bool_" || !PyIndex_Check(o.ptr()))
    {
        throw py::type_error(name + " must be an int in " + range + ", not " + type);
    }
    const auto v = py::reinterpret_steal<py::object>(PyNumber_Index(o.ptr()));
    if (!v)
    {
        throw py::error_already_set();
    }
    int overflow = 0;
    const long long s = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    bool ok = overflow == 0 && s >= 0;
    uint64_t u = static_cast<uint64_t>(s);
    if (overflow > 0)
    {
        u = PyLong_AsUnsignedLongLong(v.ptr());
        ok = !PyErr_Occurred();
        PyErr_Clear();
    }
    if (!ok || u < lo || u > hi)
    {
        throw py::value_error(name + " = " + py::str(v).cast<std::string>() + " is out of range "
                              + range);
    }
    return u;
}

/**
 * \brief An optional integer keyword: ToUInt() of the value, or a default for None.
 * \param a the argument.
 * \param name the keyword, for the message.
 * \param lo the lowest value allowed.
 * \param hi the highest value allowed.
 * \param dflt the value for None.
 * \return the value.
 */
inline uint64_t
ToUInt(const IntArg& a, const std::string& name, uint64_t lo, uint64_t hi, uint64_t dflt)
{
    return a.Given() ? ToUInt(a.value, name, lo, hi) : dflt;
}

/// The range of a uint32_t keyword.
constexpr uint64_t U32_MAX = 0xFFFFFFFFULL;
/// The range of a uint64_t keyword.
constexpr uint64_t U64_MAX = ~0ULL;

/// C++ parameter name -> Python keyword.
using KeywordNames = std::vector<std::pair<std::string, std::string>>;

/**
 * \brief Rewrite the C++ parameter names in a scenario's message into the Python
 *        keywords (durationUs -> duration_us): whole words only.
 * \param what the message.
 * \param names C++ name -> keyword.
 * \return the message with keyword names.
 */
inline std::string
ToKeywords(std::string what, const KeywordNames& names)
{
    auto isWordChar = [](char ch)
    {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
    };
    for (const auto& [from, to] : names)
    {
        std::size_t pos = 0;
        while ((pos = what.find(from, pos)) != std::string::npos)
        {
            const std::size_t e = pos + from.size();
            const bool left = pos == 0 || !isWordChar(what[pos - 1]);
            const bool right = e == what.size() || !isWordChar(what[e]);
            if (left && right)
            {
                what.replace(pos, from.size(), to);
                pos += to.size();
            }
            else
            {
                pos = e;
            }
        }
    }
    return what;
}

/**
 * \brief Makes a scenario run interruptible from Python (Ctrl-C).
 *
 * A run releases the GIL, so Python's signal handlers cannot run until it returns:
 * KeyboardInterrupt would wait for the end of a run that may take hours. Start(),
 * called by the scenario just before Simulator::Run (its beforeRun hook), schedules
 * a check event that takes the GIL, runs the pending signal handlers
 * (PyErr_CheckSignals) and, if one raised, stops the simulation and keeps the
 * exception; the scenario then ends and cleans up as usual, and RethrowIfRaised()
 * raises the exception in Python. The event reschedules itself with a simulated-time
 * interval adapted to about 20-100 ms of wall time between checks (from 1 ns to 1 ms).
 *
 * The checks change no result: they draw no random numbers, and ns-3 runs events of
 * one instant in the order they were scheduled, which events scheduled in between
 * do not change. Events() gives the check events to subtract from the scenario's
 * event count.
 */
class SignalCheck
{
  public:
    /// \brief Schedule the first check (if checks are enabled); the simulator must be set up.
    void Start()
    {
        m_last = std::chrono::steady_clock::now();
        if (Enabled())
        {
            ns3::Simulator::ScheduleNow(&SignalCheck::Check, this);
        }
    }

    /// \return the check events executed.
    uint64_t Events() const
    {
        return m_events;
    }

    /// \brief Raise the exception a signal handler raised during the run, if any (GIL held).
    void RethrowIfRaised()
    {
        if (m_raised)
        {
            throw *m_raised;
        }
    }

    /// \return whether runs check for signals (process-wide, default true; off only to
    ///         compare results with and without the checks).
    static std::atomic<bool>& Enabled()
    {
        static std::atomic<bool> enabled{true};
        return enabled;
    }

  private:
    /// \brief The check event.
    void Check()
    {
        ++m_events;
        {
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0)
            {
                m_raised = std::make_unique<py::error_already_set>();
                ns3::Simulator::Stop();
                return;
            }
        }
        const auto now = std::chrono::steady_clock::now();
        const auto wall = now - m_last;
        m_last = now;
        if (wall < std::chrono::milliseconds(20) && m_interval < ns3::MilliSeconds(1))
        {
            m_interval = ns3::NanoSeconds(m_interval.GetNanoSeconds() * 2);
        }
        else if (wall > std::chrono::milliseconds(100) && m_interval > ns3::NanoSeconds(1))
        {
            m_interval = ns3::NanoSeconds(m_interval.GetNanoSeconds() / 2);
        }
        if (!ns3::Simulator::IsFinished())
        {
            ns3::Simulator::Schedule(m_interval, &SignalCheck::Check, this);
        }
    }

    ns3::Time m_interval{ns3::MicroSeconds(1)};      //!< simulated time between checks
    std::chrono::steady_clock::time_point m_last;    //!< wall time of the last check
    uint64_t m_events{0};                            //!< checks executed
    std::unique_ptr<py::error_already_set> m_raised; //!< what a signal handler raised
};

/**
 * \brief Run a scenario from Python: attribute defaults put back afterwards, the GIL
 *        released, Ctrl-C checked (SignalCheck), C++ argument errors as ValueError in
 *        the caller's spelling, the check events left out of the event count.
 * \param c the configuration (its beforeRun is set here).
 * \param run the scenario's Run.
 * \param keywords turns a C++ message into the Python one.
 * \return the results.
 */
template <typename Config, typename Result, typename Keywords>
Result
RunScenario(Config& c, Result (*run)(const Config&), const Keywords& keywords)
{
    SignalCheck check;
    c.beforeRun = [&check]()
    {
        check.Start();
    };
    Result r;
    try
    {
        ns3::ScenarioAttributeDefaults defaults(c.attributes);
        py::gil_scoped_release release;
        r = run(c);
    }
    catch (const std::invalid_argument& e)
    {
        throw py::value_error(keywords(e.what()));
    }
    catch (const std::out_of_range& e)
    {
        throw py::value_error(keywords(e.what()));
    }
    check.RethrowIfRaised();
    r.events -= check.Events();
    return r;
}

} // namespace ns3rifl

namespace pybind11
{
namespace detail
{

/// \brief Loads any Python object into an ns3rifl::IntArg (checked by ToUInt()).
template <> struct type_caster<ns3rifl::IntArg>
{
  public:
    PYBIND11_TYPE_CASTER(ns3rifl::IntArg, const_name("int"));

    /**
     * \brief Take the object as it is.
     * \param src the object.
     * \return true.
     */
    bool load(handle src, bool)
    {
        value.value = reinterpret_borrow<object>(src);
        return true;
    }

    /**
     * \brief The object back (not used by the bindings).
     * \param a the argument.
     * \return a new reference to its object.
     */
    static handle cast(const ns3rifl::IntArg& a, return_value_policy, handle)
    {
        return a.value.inc_ref();
    }
};

} // namespace detail
} // namespace pybind11

#endif /* NS3RIFL_BINDING_UTIL_H */
