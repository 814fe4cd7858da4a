/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_DETERMINISTIC_ERROR_PROCESS_H
#define RIFL_DETERMINISTIC_ERROR_PROCESS_H

#include "bit-error-process.h"

#include <map>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief Errors at given slots with given bits (deterministic injection for tests).
 *
 * Errors come from AddError() and from the "Errors" attribute, a list
 * "slot:bit,bit,...;slot:bit,..." such as "12:0,5;40:255" (spaces allowed
 * around numbers). Entries for the same slot are merged (union of bits) and
 * events are replayed in ascending slot order. Bits must be below the frame
 * size: checked by AddError() once the frame size is known and by
 * SetFrameBits() for errors added before. Uses no random stream.
 */
class DeterministicErrorProcess : public BitErrorProcess
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    DeterministicErrorProcess();
    /// \brief Destructor.
    ~DeterministicErrorProcess() override;

    /**
     * \brief Corrupt bits of a slot (merged with errors already listed for it).
     *
     * Adding errors at or before an event already popped has no effect on the
     * current pass (they appear after Reset()).
     * \param slot the slot, below FrameErrorEvent::NO_MORE_ERRORS.
     * \param bits the bit indices (any order, duplicates ignored), each below
     *        GetFrameBits() when set (std::invalid_argument otherwise); an empty
     *        list is ignored.
     */
    void AddError(uint64_t slot, const std::vector<uint32_t>& bits);

    /**
     * \brief Replace the whole list by a parsed "Errors" string.
     * \param errors e.g. "12:0,5;40:255"; "" clears (std::invalid_argument naming
     *        "Errors" on malformed text).
     */
    void SetErrors(const std::string& errors);

    /// \return the list in the "Errors" string format (merged, sorted).
    std::string GetErrors() const;

    /// \brief Remove every error and restart at slot 0.
    void Clear();

    /// \return the number of errored slots in the list.
    size_t GetNErrorSlots() const;

    /**
     * \brief No random stream to assign (the list is deterministic).
     * \param stream the first stream index (unused).
     * \return 0: no random stream is used.
     */
    int64_t AssignStreams(int64_t stream) override;
    /// \brief Replay the list from slot 0.
    void Reset() override;
    /// \return the listed errored bits divided by the bits up to the last listed slot (0 if empty
    /// or no frame size).
    double GetMeanBer() const override;

  protected:
    void DoGenerateNext(uint64_t minSlot, FrameErrorEvent& event) override;
    void DoSetFrameBits(uint32_t frameBits) override;

  private:
    std::map<uint64_t, std::set<uint32_t>> m_errors; //!< slot -> bits
};

} // namespace ns3

#endif /* RIFL_DETERMINISTIC_ERROR_PROCESS_H */
