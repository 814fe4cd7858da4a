/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_EXACT_BIT_ERROR_MODEL_H
#define RIFL_EXACT_BIT_ERROR_MODEL_H

#include "bit-error-process.h"
#include "ns3/error-model.h"

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief An ns-3 ErrorModel driven by the module's exact bit-error processes.
 *
 * For Ethernet-style baselines (PointToPointNetDevice, CsmaNetDevice) at the
 * same BER as a RIFL or direct-link link. The packets a device passes through
 * the model are laid end to end on one bit stream; a packet of B bytes (plus
 * OverheadBytes of line framing exposed to errors) is corrupt iff the process
 * puts at least one bit error inside its span. With IndependentBitErrorProcess
 * this gives exactly 1 - (1 - p)^(8 (B + overhead)) per packet at any BER,
 * including the rates below ~2.3e-10 per packet that ns-3's RateErrorModel
 * cannot represent (it compares one 32-bit-resolution uniform per packet).
 *
 * Set "Ber" for independent errors (an IndependentBitErrorProcess is made
 * for it), or "BitErrorProcess" for any process (e.g. Gilbert-Elliott); the
 * process is used with one bit per slot.
 */
class ExactBitErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    ExactBitErrorModel();

    /// \brief Destructor.
    ~ExactBitErrorModel() override;

    /**
     * \brief Use independent bit errors at this rate (makes a new process).
     * \param ber the bit error rate, [0, 1) (std::invalid_argument naming "Ber").
     */
    void SetBer(double ber);

    /// \return the long-run BER of the process in use.
    double GetBer() const;

    /**
     * \brief Use any bit-error process (it is switched to one bit per slot).
     * \param process the process; must not be null.
     */
    void SetBitErrorProcess(Ptr<BitErrorProcess> process);

    /// \return the process in use.
    Ptr<BitErrorProcess> GetBitErrorProcess() const;

    /**
     * \brief Assign a fixed random stream to the process.
     * \param stream the first stream index.
     * \return the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the number of packets the model has judged.
    uint64_t GetPacketsSeen() const;

    /// \return the number of packets it declared corrupt.
    uint64_t GetPacketsCorrupted() const;

    /// \return the number of bit errors that fell inside packets.
    uint64_t GetBitErrors() const;

  protected:
    void DoDispose() override;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    Ptr<BitErrorProcess> m_process; //!< the bit stream's errors
    uint32_t m_overheadBytes{0};    //!< framing bytes counted with each packet
    uint64_t m_bitCursor{0};        //!< first bit of the next packet on the stream
    uint64_t m_packetsSeen{0};      //!< packets judged
    uint64_t m_packetsCorrupted{0}; //!< packets declared corrupt
    uint64_t m_bitErrors{0};        //!< bit errors inside packets
};

} // namespace ns3

#endif /* RIFL_EXACT_BIT_ERROR_MODEL_H */
