/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-attributes.h"

#include "ns3/config.h"
#include "ns3/pointer.h"
#include "ns3/rifl-check.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <regex>

namespace ns3
{

namespace
{

/**
 * \brief Check the text of a value before ns-3 parses it (several of ns-3's
 *        parsers abort the process on malformed text instead of failing).
 * \param checker the attribute's checker (its value type, e.g. "ns3::UintegerValue").
 * \param text the text.
 * \return an empty string if the text has the right form, else what is expected.
 */
std::string
CheckText(const Ptr<const AttributeChecker>& checker, const std::string& text)
{
    // ns-3 names some value types with the namespace ("ns3::UintegerValue") and
    // some without ("DataRateValue", "BooleanValue").
    std::string typeName = checker->GetValueTypeName();
    if (typeName.rfind("ns3::", 0) != 0)
    {
        typeName = "ns3::" + typeName;
    }
    // ns-3 reads the value with operator>> and aborts unless that consumed the
    // whole text: leading white space is skipped, nothing may follow the value.
    static const std::regex uinteger(R"(^\s*\+?[0-9]+$)");
    static const std::regex integer(R"(^\s*[+-]?[0-9]+$)");
    static const std::regex real(R"(^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$)");
    static const std::regex time(
        R"(^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d|y)?$)");
    static const std::regex rate(
        R"(^\s*([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?(bps|b/s|[kKMGT]bps|[kKMGT]b/s|[kKMGT]ib/s|[kKMGT]B/s|[kKMGT]iB/s|Bps|B/s)$)");
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
        return std::regex_match(text, real) ? "" : "a number";
    }
    if (typeName == "ns3::TimeValue")
    {
        return std::regex_match(text, time) ? "" : "a time such as 80ns or 1.5us";
    }
    if (typeName == "ns3::DataRateValue")
    {
        return std::regex_match(text, rate) ? "" : "a data rate such as 28Gbps";
    }
    if (typeName == "ns3::Mac48AddressValue")
    {
        static const std::regex mac(R"(^([0-9a-fA-F]{1,2}:){5}[0-9a-fA-F]{1,2}$)");
        return std::regex_match(text, mac) ? "" : "a MAC address such as 00:00:00:00:00:01";
    }
    if (typeName == "ns3::PointerValue")
    {
        // ns-3 builds the object through an ObjectFactory, which aborts on an
        // unknown or abstract class: only a constructible class name is taken.
        const auto pointer = DynamicCast<const PointerChecker>(checker);
        TypeId tid;
        const bool ok = pointer && TypeId::LookupByNameFailSafe(text, &tid) && tid.HasConstructor()
                        && tid.IsChildOf(pointer->GetPointeeTypeId());
        return ok ? ""
                  : "the name of a class derived from "
                        + (pointer ? pointer->GetPointeeTypeId().GetName() : std::string("Object"));
    }
    return "";
}

/**
 * \brief Strip the sign ns-3 prints in front of a time ("+10000ns" -> "10000ns").
 * \param t the text.
 * \return the text without a leading '+'.
 */
std::string
NoPlus(const std::string& t)
{
    return (!t.empty() && t[0] == '+') ? t.substr(1) : t;
}

/**
 * \brief The allowed values of a checker, as text (see AllowedValues).
 * \param checker the checker.
 * \return the text, empty if the checker holds no range.
 */
std::string
DescribeChecker(Ptr<const AttributeChecker> checker)
{
    const std::string vt = checker->GetValueTypeName();
    const std::string type = vt.rfind("ns3::", 0) == 0 ? vt : "ns3::" + vt;
    const std::string info = checker->GetUnderlyingTypeInformation();
    if (type == "ns3::EnumValue")
    {
        return info;
    }
    if (type == "ns3::BooleanValue")
    {
        return "true|false";
    }
    const bool isInt = type == "ns3::UintegerValue" || type == "ns3::IntegerValue";
    const bool isNumber = isInt || type == "ns3::DoubleValue";
    const bool isTime = type == "ns3::TimeValue";
    const std::size_t sp = info.rfind(' ');
    const std::size_t colon = info.find(':', sp == std::string::npos ? 0 : sp);
    if ((!isNumber && !isTime) || sp == std::string::npos || colon == std::string::npos)
    {
        return "";
    }
    const std::string cType = info.substr(0, sp);
    const std::string lo = info.substr(sp + 1, colon - sp - 1);
    const std::string hi = info.substr(colon + 1);
    bool loOpen = false;
    bool hiOpen = false;
    if (isTime)
    {
        // Time::Min() / Time::Max() print as about -/+9.22337e+18 in the resolution unit.
        loOpen = std::strtod(lo.c_str(), nullptr) <= -9e18;
        hiOpen = std::strtod(hi.c_str(), nullptr) >= 9e18;
    }
    else if (isInt)
    {
        const long double l = std::strtold(lo.c_str(), nullptr);
        const long double h = std::strtold(hi.c_str(), nullptr);
        const bool u = type == "ns3::UintegerValue";
        long double tmin = 0;
        long double tmax = 0;
        if (cType == "uint8_t" || cType == "int8_t")
        {
            tmax = u ? 255.0L : 127.0L;
        }
        else if (cType == "uint16_t" || cType == "int16_t")
        {
            tmax = u ? 65535.0L : 32767.0L;
        }
        else if (cType == "uint32_t" || cType == "int32_t")
        {
            tmax = u ? 4294967295.0L : 2147483647.0L;
        }
        else
        {
            tmax = u ? 18446744073709551615.0L : 9223372036854775807.0L;
        }
        tmin = u ? 0 : -tmax - 1;
        // Any value of the type: no range. One side at a 64-bit type's bound: left
        // out (too long to be a useful limit); narrower types show both bounds.
        if (l <= tmin && h >= tmax)
        {
            return "";
        }
        const bool wide = cType != "uint8_t" && cType != "int8_t" && cType != "uint16_t"
                          && cType != "int16_t" && cType != "uint32_t" && cType != "int32_t";
        loOpen = wide && l <= tmin;
        hiOpen = wide && h >= tmax;
        if (hiOpen)
        {
            return ">= " + lo;
        }
        if (loOpen)
        {
            return "<= " + hi;
        }
        return lo + ".." + hi;
    }
    else
    {
        loOpen = std::strtod(lo.c_str(), nullptr) <= -1e308;
        hiOpen = std::strtod(hi.c_str(), nullptr) >= 1e308;
    }
    const std::string l = isTime ? NoPlus(lo) : lo;
    const std::string h = isTime ? NoPlus(hi) : hi;
    if (loOpen && hiOpen)
    {
        return "";
    }
    if (hiOpen)
    {
        return ">= " + l;
    }
    if (loOpen)
    {
        return "<= " + h;
    }
    return "[" + l + ", " + h + "]";
}

} // namespace

std::string
ScenarioAttributes::AllowedValues(const std::string& fullName)
{
    const std::string why = Check(fullName);
    RIFL_CHECK_ARG(!why.empty(),
                   "ScenarioAttributes::AllowedValues(\"" << fullName << "\"): " << why);
    const std::size_t sep = fullName.rfind("::");
    TypeId::AttributeInformation info;
    TypeId::LookupByName(fullName.substr(0, sep))
        .LookupAttributeByName(fullName.substr(sep + 2), &info);
    return DescribeChecker(info.checker);
}

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
ScenarioAttributes::CheckUsed(const std::map<std::string, std::string>& attributes,
                              const std::vector<std::string>& used, const std::string& scenario,
                              bool strict)
{
    std::vector<TypeId> usedIds;
    std::string list;
    for (const std::string& name : used)
    {
        usedIds.push_back(TypeId::LookupByName(name));
        list += (list.empty() ? "" : ", ") + name;
    }
    for (const auto& kv : attributes)
    {
        const std::size_t sep = kv.first.rfind("::");
        TypeId cls;
        if (!Check(kv.first).empty()
            || !TypeId::LookupByNameFailSafe(kv.first.substr(0, sep), &cls))
        {
            continue; // Apply() names the problem
        }
        const bool checked = strict || cls.GetGroupName() == "Rifl"
                             || cls.IsChildOf(TypeId::LookupByName("ns3::NetDevice"))
                             || cls.IsChildOf(TypeId::LookupByName("ns3::Channel"));
        const bool related
            = std::any_of(usedIds.begin(), usedIds.end(),
                          [&cls](const TypeId& u)
                          {
                              return u == cls || u.IsChildOf(cls) || cls.IsChildOf(u);
                          });
        RIFL_CHECK_ARG(checked && !related,
                       "attributes[\"" << kv.first << "\"]: " << scenario << " does not use "
                                       << cls.GetName()
                                       << " (it would change nothing); its classes: " << list
                                       << (strict ? "" : " and ns-3's internet stack"));
    }
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
        const std::string form = CheckText(info.checker, kv.second);
        RIFL_CHECK_ARG(!form.empty(), "attributes[\"" << kv.first << "\"] = \"" << kv.second
                                                      << "\" is not " << form);
        const std::string allowed = DescribeChecker(info.checker);
        const std::string type = info.checker->GetValueTypeName();
        const bool isChoice
            = type == "ns3::EnumValue" || type == "ns3::BooleanValue" || type == "BooleanValue";
        if (type == "ns3::EnumValue")
        {
            // ns-3.37's EnumValue::DeserializeFromString cannot fail: an unknown name is an
            // NS_ASSERT in debug builds and a read past the checker's table in release builds.
            bool known = false;
            std::size_t from = 0;
            while (from <= allowed.size() && !known)
            {
                const std::size_t bar = std::min(allowed.find('|', from), allowed.size());
                known = allowed.compare(from, bar - from, kv.second) == 0 &&
                        bar - from == kv.second.size();
                from = bar + 1;
            }
            RIFL_CHECK_ARG(!known,
                           "attributes[\"" << kv.first << "\"] = \"" << kv.second
                                           << "\" is not one of " << allowed);
        }
        bool set = false;
        std::string what = allowed.empty() ? "is not a valid value for this attribute"
                           : isChoice      ? "is not one of " + allowed
                                           : "is outside the allowed range " + allowed;
        try
        {
            set = Config::SetDefaultFailSafe(kv.first, StringValue(kv.second));
        }
        catch (const std::exception& e)
        {
            // some of ns-3's parsers throw (std::stoul) instead of failing
            what += std::string(" (") + e.what() + ")";
        }
        RIFL_CHECK_ARG(!set,
                       "attributes[\"" << kv.first << "\"] = \"" << kv.second << "\" " << what);
    }
}

} // namespace ns3
