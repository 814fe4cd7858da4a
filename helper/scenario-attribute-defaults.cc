/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-attribute-defaults.h"

namespace ns3
{

ScenarioAttributeDefaults::ScenarioAttributeDefaults(
    const std::map<std::string, std::string>& attributes)
{
    for (const auto& kv : attributes)
    {
        const std::size_t sep = kv.first.rfind("::");
        TypeId tid;
        if (sep == std::string::npos || sep == 0
            || !TypeId::LookupByNameFailSafe(kv.first.substr(0, sep), &tid))
        {
            continue;
        }
        const std::string attr = kv.first.substr(sep + 2);
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (info.name == attr)
            {
                m_saved.push_back({tid, i, info.initialValue});
            }
        }
    }
}

ScenarioAttributeDefaults::~ScenarioAttributeDefaults()
{
    for (auto& s : m_saved)
    {
        s.tid.SetAttributeInitialValue(s.index, s.value);
    }
}

} // namespace ns3
