/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rifl
 * libFuzzer target "scenario-attributes": ScenarioAttributes::Apply(), the C++
 * entry through which scenarios and the Python sweeps hand text attribute
 * values ("ns3::RiflNetDevice::FrameSize" -> "512") to ns-3.
 *
 * The input is a list of up to 8 entries, each an attribute name (one of every
 * attribute, own or inherited, of the module's registered classes, or text from
 * the input) and a value text. Apply() must either accept the map or throw
 * std::invalid_argument naming the entry: never abort the process (ns-3's own
 * Config::SetDefault and several value parsers abort, which would kill a Python
 * interpreter). Then every class of the module with a constructor is created
 * with those defaults; creation may throw std::invalid_argument or
 * std::out_of_range (a default no object may take), nothing else. The defaults
 * are reset after each input (Config::Reset()), and Simulator::Destroy() frees the
 * channels ChannelList keeps. RIFL_FUZZ_VERBOSE=1 in the
 * environment prints each input's map (to read a reproducer).
 */

#include "fuzz-check.h"
#include "ns3/config.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/rifl-module.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param name a TypeId name.
 * \return true for the module's classes.
 */
bool
IsModuleClass(const std::string& name)
{
    return name.find("Rifl") != std::string::npos || name.find("DirectLink") != std::string::npos
           || name.find("ErrorProcess") != std::string::npos
           || name.find("SyncLoss") != std::string::npos
           || name.find("CpuTraffic") != std::string::npos;
}

/// The module's classes and every attribute name they answer to.
struct Catalogue
{
    std::vector<TypeId> classes;    //!< classes with a constructor
    std::vector<std::string> names; //!< "ns3::Class::Attribute"
};

/// \return the catalogue (built once).
const Catalogue&
GetCatalogue()
{
    static const Catalogue cat = []()
    {
        Catalogue c;
        std::set<std::string> names;
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            const TypeId tid = TypeId::GetRegistered(i);
            if (!IsModuleClass(tid.GetName()))
            {
                continue;
            }
            if (tid.HasConstructor())
            {
                c.classes.push_back(tid);
            }
            for (TypeId t = tid;; t = t.GetParent())
            {
                for (std::size_t a = 0; a < t.GetAttributeN(); ++a)
                {
                    names.insert(tid.GetName() + "::" + t.GetAttribute(a).name);
                }
                if (t == t.GetParent())
                {
                    break;
                }
            }
        }
        c.names.assign(names.begin(), names.end());
        return c;
    }();
    return cat;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const Catalogue& cat = GetCatalogue();
    RIFL_FUZZ_CHECK(!cat.names.empty() && !cat.classes.empty(), "the module's classes");
    FuzzedDataProvider in(data, size);
    std::map<std::string, std::string> attrs;
    const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(1, 8);
    for (uint32_t i = 0; i < n && in.remaining_bytes() > 0; ++i)
    {
        std::string name;
        if (in.ConsumeIntegralInRange<uint32_t>(0, 15) == 0)
        {
            name = in.ConsumeRandomLengthString(80);
        }
        else
        {
            name = cat.names[in.ConsumeIntegralInRange<std::size_t>(0, cat.names.size() - 1)];
        }
        attrs[name] = in.ConsumeRandomLengthString(64);
    }
    if (std::getenv("RIFL_FUZZ_VERBOSE"))
    {
        for (const auto& kv : attrs)
        {
            std::fprintf(stderr, "attributes[\"%s\"] = \"%s\"\n", kv.first.c_str(),
                         kv.second.c_str());
        }
    }
    bool applied = true;
    try
    {
        ScenarioAttributes::Apply(attrs);
    }
    catch (const std::invalid_argument& e)
    {
        RIFL_FUZZ_CHECK(std::string(e.what()).find("attributes[") != std::string::npos,
                        "the message names the entry: " << e.what());
        applied = false;
    }
    if (applied)
    {
        for (const TypeId& tid : cat.classes)
        {
            try
            {
                ObjectFactory f;
                f.SetTypeId(tid);
                Ptr<Object> o = f.Create();
                RIFL_FUZZ_CHECK(o, "created " << tid.GetName());
                o->Dispose();
            }
            catch (const std::invalid_argument&)
            {
            }
            catch (const std::out_of_range&)
            {
            }
        }
    }
    Config::Reset();
    // Channels register themselves in ns-3's ChannelList (and nodes in NodeList)
    // for the simulation's lifetime; without this every input would keep its
    // channel objects (about 1 kB) and a long run would run out of memory.
    Simulator::Destroy();
    return 0;
}
