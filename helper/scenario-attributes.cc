/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-attributes.h"

#include "ns3/config.h"
#include "ns3/rifl-check.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <regex>

namespace ns3
{

namespace
{

/**
 * \brief Check the text of a value before ns-3 parses it (several of ns-3's
 *        parsers abort the process on malformed text instead of failing).
 * \param typeName the checker's value type, e.g. "ns3::UintegerValue".
 * \param text the text.
 * \return an empty string if the text has the right form, else what is expected.
 */
std::string
CheckText(const std::string& typeName, const std::string& text)
{
    static const std::regex uinteger(R"(^\s*\+?[0-9]+\s*$)");
    static const std::regex integer(R"(^\s*[+-]?[0-9]+\s*$)");
    static const std::regex time(
        R"(^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*(s|ms|us|ns|ps|fs|min|h|d|y)?\s*$)");
    static const std::regex rate(
        R"(^\s*([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*(bps|b/s|[kKMGT]bps|[kKMGT]b/s|[kKMGT]ib/s|[kKMGT]B/s|[kKMGT]iB/s|Bps|B/s)$)");
    if (typeName == "ns3::UintegerValue")
    {
        return std::regex_match(text, uinteger) ? "" : "an unsigned integer";
    }
    if (typeName == "ns3::IntegerValue")
    {
        return std::regex_match(text, integer) ? "" : "an integer";
    }
    if (typeName == "ns3::DoubleValue")
    {
        char* end = nullptr;
        std::strtod(text.c_str(), &end);
        while (end && *end == ' ')
        {
            ++end;
        }
        return (!text.empty() && end && *end == '\0') ? "" : "a number";
    }
    if (typeName == "ns3::TimeValue")
    {
        return std::regex_match(text, time) ? "" : "a time such as 80ns or 1.5us";
    }
    if (typeName == "ns3::DataRateValue")
    {
        return std::regex_match(text, rate) ? "" : "a data rate such as 28Gbps";
    }
    return "";
}

} // namespace

std::string
ScenarioAttributes::Check(const std::string& fullName)
{
    const std::size_t sep = fullName.rfind("::");
    if (sep == std::string::npos || sep == 0)
    {
        return "expected \"ns3::Class::Attribute\"";
    }
    const std::string cls = fullName.substr(0, sep);
    const std::string attr = fullName.substr(sep + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(cls, &tid))
    {
        return "no class named " + cls;
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attr, &info))
    {
        return cls + " has no attribute " + attr;
    }
    return "";
}

void
ScenarioAttributes::Apply(const std::map<std::string, std::string>& attributes)
{
    for (const auto& kv : attributes)
    {
        const std::string why = Check(kv.first);
        RIFL_CHECK_ARG(!why.empty(), "attributes[\"" << kv.first << "\"]: " << why);
        const std::size_t sep = kv.first.rfind("::");
        TypeId tid = TypeId::LookupByName(kv.first.substr(0, sep));
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(kv.first.substr(sep + 2), &info);
        const std::string form = CheckText(info.checker->GetValueTypeName(), kv.second);
        RIFL_CHECK_ARG(!form.empty(), "attributes[\"" << kv.first << "\"] = \"" << kv.second
                                                      << "\" is not " << form);
        RIFL_CHECK_ARG(!Config::SetDefaultFailSafe(kv.first, StringValue(kv.second)),
                       "attributes[\"" << kv.first << "\"] = \"" << kv.second
                                       << "\" is not a valid value for this attribute");
    }
}

} // namespace ns3
