/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Helpers shared by the ns3rifl binding sources.
 */

#ifndef NS3RIFL_BINDING_UTIL_H
#define NS3RIFL_BINDING_UTIL_H

#include <pybind11/pybind11.h>

#include <atomic>
#include <map>
#include <stdexcept>
#include <string>

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

} // namespace ns3rifl

#endif /* NS3RIFL_BINDING_UTIL_H */
