/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Helpers shared by the ns3rifl binding sources.
 */

#ifndef NS3RIFL_BINDING_UTIL_H
#define NS3RIFL_BINDING_UTIL_H

#include <pybind11/pybind11.h>

#include <map>
#include <string>

namespace ns3rifl
{

namespace py = pybind11;

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
