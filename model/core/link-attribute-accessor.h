/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LINK_ATTRIBUTE_ACCESSOR_H
#define LINK_ATTRIBUTE_ACCESSOR_H

#include "ns3/attribute.h"
#include "ns3/object-base.h"
#include "ns3/ptr.h"
#include "ns3/rifl-check.h"
#include "ns3/type-id.h"

#include <string>
#include <utility>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief An attribute accessor that refuses a new value once the object's link has
 *        started.
 *
 * A link reads some attributes of its devices and its channel once, when it starts
 * (RiflChannel::Start(), DirectLinkChannel::Start(): the link's engine is built from
 * them); a value set later would be ignored in silence. This accessor wraps the
 * attribute's own accessor and throws std::invalid_argument, naming the attribute (found
 * in the object's TypeId, e.g. "ns3::DirectLinkChannel::Ber cannot change once the link
 * has started: ..."), for a Set() on an object whose link has started; reads, and sets
 * before the start, go to the wrapped accessor.
 * \tparam T the object's class, with a `bool IsLinkStarted() const`.
 */
template <typename T> class LinkAttributeAccessor : public AttributeAccessor
{
  public:
    /**
     * \param inner the attribute's accessor (e.g. from MakeUintegerAccessor()).
     */
    explicit LinkAttributeAccessor(Ptr<const AttributeAccessor> inner)
        : m_inner(std::move(inner))
    {
    }

    /**
     * \param object the object.
     * \param value the new value.
     * \return what the wrapped accessor returns (std::invalid_argument once the link of
     *         \p object has started).
     */
    bool Set(ObjectBase* object, const AttributeValue& value) const override
    {
        const T* o = dynamic_cast<const T*>(object);
        RIFL_CHECK_ARG(o != nullptr && o->IsLinkStarted(),
                       NameIn(*object)
                           << " cannot change once the link has started: the link reads "
                              "it when it starts (its engine is built from it); set it "
                              "before, or on a new link");
        return m_inner->Set(object, value);
    }

    /**
     * \param object the object.
     * \param attribute set to the value.
     * \return what the wrapped accessor returns.
     */
    bool Get(const ObjectBase* object, AttributeValue& attribute) const override
    {
        return m_inner->Get(object, attribute);
    }

    /// \return what the wrapped accessor returns.
    bool HasGetter() const override
    {
        return m_inner->HasGetter();
    }

    /// \return what the wrapped accessor returns.
    bool HasSetter() const override
    {
        return m_inner->HasSetter();
    }

  private:
    /**
     * \param object an object with this attribute.
     * \return the attribute's full name (e.g. "ns3::RiflNetDevice::Lanes"), found by this
     *         accessor among the attributes of the object's TypeId and its parents'
     *         (asked on the error path only).
     */
    std::string NameIn(const ObjectBase& object) const
    {
        for (TypeId tid = object.GetInstanceTypeId();; tid = tid.GetParent())
        {
            for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
            {
                const TypeId::AttributeInformation info = tid.GetAttribute(i);
                if (PeekPointer(info.accessor) == this)
                {
                    return tid.GetName() + "::" + info.name;
                }
            }
            if (tid.GetParent() == tid)
            {
                return "an attribute of " + object.GetInstanceTypeId().GetName();
            }
        }
    }

    Ptr<const AttributeAccessor> m_inner; //!< the attribute's own accessor
};

/**
 * \ingroup rifl-core
 * \brief Wrap an attribute's accessor so that it refuses a new value once the link has
 *        started (LinkAttributeAccessor).
 * \tparam T the object's class, with a `bool IsLinkStarted() const`.
 * \param inner the attribute's accessor.
 * \return the wrapping accessor.
 */
template <typename T>
Ptr<const AttributeAccessor>
MakeLinkAttributeAccessor(Ptr<const AttributeAccessor> inner)
{
    return Create<LinkAttributeAccessor<T>>(std::move(inner));
}

} // namespace ns3

#endif /* LINK_ATTRIBUTE_ACCESSOR_H */
