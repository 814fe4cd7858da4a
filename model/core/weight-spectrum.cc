/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "weight-spectrum.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "rifl-check.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflWeightSpectrum");

namespace
{

/// Syndromes up to this many bits are counted in a direct-indexed array.
constexpr uint32_t ARRAY_BITS_PAIRS = 24;
/// Syndromes up to this many bits are looked up in a direct-indexed array (w = 3).
constexpr uint32_t ARRAY_BITS_SINGLE = 22;
/// Largest number of pair XORs held in memory at once by the sorted method (64 MB).
constexpr uint64_t MAX_PAIRS_PER_GROUP = uint64_t{1} << 24;

/**
 * \brief Number of bits needed to hold every value of a map and a target.
 * \param syndromes the values.
 * \param target one more value.
 * \return the bit length of the OR of all of them.
 */
uint32_t
BitLength(const std::vector<uint32_t>& syndromes, uint32_t target)
{
    uint32_t all = target;
    for (uint32_t s : syndromes)
    {
        all |= s;
    }
    uint32_t bits = 0;
    while (bits < 32 && (all >> bits) != 0)
    {
        ++bits;
    }
    return bits;
}

/**
 * \brief Number of positions per syndrome value, for fast look-ups.
 *
 * A direct-indexed array when the values are narrow, otherwise an
 * open-addressing hash table (linear probing, load <= 1/4) of the distinct
 * values with their counts.
 */
class ValueCounter
{
  public:
    /**
     * \brief Index a syndrome map.
     * \param syndromes the syndromes.
     * \param bits the bit length of every value that will be looked up.
     */
    ValueCounter(const std::vector<uint32_t>& syndromes, uint32_t bits)
        : m_direct(bits <= ARRAY_BITS_SINGLE)
        , m_shift(0)
        , m_mask(0)
    {
        if (m_direct)
        {
            m_counts.assign(std::size_t{1} << bits, 0);
            for (uint32_t s : syndromes)
            {
                ++m_counts[s];
            }
            return;
        }
        uint32_t tableBits = 4;
        while ((std::size_t{1} << tableBits) < 4 * syndromes.size())
        {
            ++tableBits;
        }
        m_shift = 32 - tableBits;
        m_mask = (std::size_t{1} << tableBits) - 1;
        m_values.assign(m_mask + 1, 0);
        m_counts.assign(m_mask + 1, 0); // count 0 marks an empty slot
        for (uint32_t s : syndromes)
        {
            std::size_t slot = Slot(s);
            while (m_counts[slot] != 0 && m_values[slot] != s)
            {
                slot = (slot + 1) & m_mask;
            }
            m_values[slot] = s;
            ++m_counts[slot];
        }
    }

    /**
     * \param v a value (within the bit length given to the constructor).
     * \return how many positions have syndrome \p v.
     */
    uint64_t Get(uint32_t v) const
    {
        if (m_direct)
        {
            return m_counts[v];
        }
        for (std::size_t slot = Slot(v); m_counts[slot] != 0; slot = (slot + 1) & m_mask)
        {
            if (m_values[slot] == v)
            {
                return m_counts[slot];
            }
        }
        return 0;
    }

    /**
     * \brief Visit every distinct value with its count.
     * \param f called as f(value, count).
     */
    template <class F> void ForEach(F f) const
    {
        for (std::size_t i = 0; i < m_counts.size(); ++i)
        {
            if (m_counts[i] != 0)
            {
                f(m_direct ? static_cast<uint32_t>(i) : m_values[i], uint64_t{m_counts[i]});
            }
        }
    }

  private:
    /**
     * \param v a value.
     * \return its home slot in the hash table.
     */
    std::size_t Slot(uint32_t v) const
    {
        return static_cast<std::size_t>((v * 0x9E3779B1U) >> m_shift);
    }

    bool m_direct;                  //!< direct-indexed array (else hash table)
    uint32_t m_shift;               //!< hash: 32 - log2(table size)
    std::size_t m_mask;             //!< hash: table size - 1
    std::vector<uint32_t> m_values; //!< hash table keys
    std::vector<uint32_t> m_counts; //!< counts, by value or by hash slot (0 = empty)
};

/**
 * \brief Number of unordered position pairs {i,j} with s_i ^ s_j = t.
 * \param vc the value counter of the map.
 * \param t the target.
 * \return the count.
 */
uint64_t
CountPairs(const ValueCounter& vc, uint32_t t)
{
    uint64_t sum = 0;
    vc.ForEach(
        [&](uint32_t v, uint64_t c)
        {
            if (t == 0)
            {
                sum += c * (c - 1); // ordered pairs, halved below
            }
            else
            {
                sum += c * vc.Get(v ^ t); // each unordered pair seen twice
            }
        });
    return sum / 2;
}

/**
 * \brief The pair statistics the weight-4 count needs.
 */
struct PairStats
{
    uint64_t sumProducts; //!< sum over v of c_v * c_(v^t)
    uint64_t pairsAtT;    //!< c_t
};

/**
 * \brief Pair statistics by a direct-indexed count array (narrow syndromes).
 * \param syndromes the map.
 * \param t the target.
 * \param bits bit length of every syndrome and of t.
 * \return the statistics.
 */
PairStats
PairStatsByArray(const std::vector<uint32_t>& syndromes, uint32_t t, uint32_t bits)
{
    std::vector<uint32_t> counts(std::size_t{1} << bits, 0);
    const std::size_t n = syndromes.size();
    for (std::size_t i = 0; i < n; ++i)
    {
        const uint32_t si = syndromes[i];
        for (std::size_t j = i + 1; j < n; ++j)
        {
            ++counts[si ^ syndromes[j]];
        }
    }
    PairStats st{0, counts[t]};
    for (std::size_t v = 0; v < counts.size(); ++v)
    {
        if (counts[v] != 0)
        {
            st.sumProducts += uint64_t{counts[v]} * counts[v ^ t];
        }
    }
    return st;
}

/**
 * \brief Sort 32-bit values in place by an LSD radix sort (3 passes of 11 bits).
 * \param v the values.
 * \param scratch a buffer, resized to v.size().
 */
void
RadixSort(std::vector<uint32_t>& v, std::vector<uint32_t>& scratch)
{
    constexpr uint32_t DIGIT_BITS = 11;
    constexpr std::size_t BUCKETS = std::size_t{1} << DIGIT_BITS;
    scratch.resize(v.size());
    std::vector<std::size_t> offsets(BUCKETS);
    for (uint32_t shift = 0; shift < 32; shift += DIGIT_BITS)
    {
        std::fill(offsets.begin(), offsets.end(), 0);
        for (uint32_t x : v)
        {
            ++offsets[(x >> shift) & (BUCKETS - 1)];
        }
        std::size_t total = 0;
        for (auto& o : offsets)
        {
            const std::size_t c = o;
            o = total;
            total += c;
        }
        for (uint32_t x : v)
        {
            scratch[offsets[(x >> shift) & (BUCKETS - 1)]++] = x;
        }
        v.swap(scratch);
    }
}

/**
 * \brief Pair statistics by sorted vectors of pair XORs, in memory-bounded groups.
 *
 * The pairs are split into groups by a hash of min(v, v^t), so that the
 * values v and v^t always fall in the same group; each group is generated,
 * sorted and run-length counted in turn.
 *
 * \param syndromes the map.
 * \param t the target.
 * \return the statistics.
 */
PairStats
PairStatsBySorting(const std::vector<uint32_t>& syndromes, uint32_t t)
{
    const uint64_t n = syndromes.size();
    const uint64_t numPairs = n * (n - 1) / 2;
    uint32_t groupBits = 0;
    while ((numPairs >> groupBits) > MAX_PAIRS_PER_GROUP)
    {
        ++groupBits;
    }
    const uint32_t numGroups = 1U << groupBits;
    auto groupOf = [t, groupBits](uint32_t v) -> uint32_t
    {
        if (groupBits == 0)
        {
            return 0;
        }
        const uint32_t key = std::min(v, v ^ t);
        return (key * 0x9E3779B1U) >> (32 - groupBits);
    };
    NS_LOG_FUNCTION(n << t << numGroups);

    PairStats st{0, 0};
    std::vector<uint32_t> xors;
    std::vector<uint32_t> scratch;
    std::vector<uint32_t> values;
    std::vector<uint64_t> counts;
    const auto expected = static_cast<std::size_t>(numPairs / numGroups + numPairs / numGroups / 8);
    for (uint32_t g = 0; g < numGroups; ++g)
    {
        xors.resize(std::max(expected, static_cast<std::size_t>(n)) + n);
        // Branch-free append: every pair is written, the end only advances
        // for the pairs of this group; a row never needs more than n slots.
        std::size_t used = 0;
        for (std::size_t i = 0; i < n; ++i)
        {
            if (xors.size() < used + n)
            {
                xors.resize(std::max(2 * xors.size(), used + n));
            }
            uint32_t* out = xors.data();
            const uint32_t si = syndromes[i];
            for (std::size_t j = i + 1; j < n; ++j)
            {
                const uint32_t v = si ^ syndromes[j];
                out[used] = v;
                used += (groupOf(v) == g) ? 1 : 0;
            }
        }
        xors.resize(used);
        RadixSort(xors, scratch);
        values.clear();
        counts.clear();
        for (std::size_t i = 0; i < xors.size();)
        {
            std::size_t j = i + 1;
            while (j < xors.size() && xors[j] == xors[i])
            {
                ++j;
            }
            values.push_back(xors[i]);
            counts.push_back(j - i);
            i = j;
        }
        for (std::size_t k = 0; k < values.size(); ++k)
        {
            const uint32_t partner = values[k] ^ t;
            if (values[k] == t)
            {
                st.pairsAtT = counts[k];
            }
            if (t == 0)
            {
                st.sumProducts += counts[k] * counts[k];
                continue;
            }
            auto it = std::lower_bound(values.begin(), values.end(), partner);
            if (it != values.end() && *it == partner)
            {
                st.sumProducts += counts[k] * counts[static_cast<std::size_t>(it - values.begin())];
            }
        }
    }
    return st;
}

/**
 * \brief Binomial coefficient as a double (for size checks).
 * \param n the set size.
 * \param k the subset size.
 * \return C(n, k).
 */
double
BinomialDouble(uint64_t n, uint32_t k)
{
    if (k > n)
    {
        return 0.0;
    }
    double r = 1.0;
    for (uint32_t i = 0; i < k; ++i)
    {
        r = r * static_cast<double>(n - i) / static_cast<double>(i + 1);
    }
    return r;
}

} // namespace

std::vector<uint32_t>
WeightSpectrum::CrcSyndromes(uint32_t width, uint32_t poly, uint32_t n)
{
    RIFL_CHECK_ARG(width < 1 || width > 32,
                   "WeightSpectrum::CrcSyndromes: width = " << width << " is out of range [1, 32]");
    RIFL_CHECK_ARG(width < 32 && (poly >> width) != 0,
                   "WeightSpectrum::CrcSyndromes: poly = 0x"
                       << std::hex << poly << std::dec << " does not fit in width = " << width
                       << " bits (give it without the x^width term)");
    RIFL_CHECK_ARG((poly & 1U) == 0, "WeightSpectrum::CrcSyndromes: poly = 0x"
                                         << std::hex << poly << std::dec
                                         << " must have its x^0 term set");
    RIFL_CHECK_ARG(n < width || n > MAX_LENGTH, "WeightSpectrum::CrcSyndromes: n = "
                                                    << n << " is out of range [width = " << width
                                                    << ", " << MAX_LENGTH << "]");
    const uint64_t mask = (width == 32) ? 0xFFFFFFFFULL : ((uint64_t{1} << width) - 1);
    std::vector<uint32_t> syn(n);
    uint64_t reg = 1; // x^0 mod g = 1 (width >= 1)
    for (uint32_t i = 0; i < n; ++i)
    {
        syn[i] = static_cast<uint32_t>(reg);
        reg <<= 1;
        if ((reg >> width) & 1U)
        {
            reg ^= poly;
        }
        reg &= mask;
    }
    return syn;
}

uint64_t
WeightSpectrum::Count(const std::vector<uint32_t>& syndromes, uint32_t w, uint32_t target)
{
    RIFL_CHECK_ARG(w > 4, "WeightSpectrum::Count: w = " << w << " is out of range [0, 4]");
    RIFL_CHECK_ARG(syndromes.empty(),
                   "WeightSpectrum::Count: syndromes is empty (the map needs >= 1 position)");
    const uint64_t n = syndromes.size();
    RIFL_CHECK_ARG(w >= 3 && n > MAX_PAIR_LENGTH, "WeightSpectrum::Count: syndromes.size() = "
                                                      << n << " is out of range [1, "
                                                      << MAX_PAIR_LENGTH << "] for w = " << w);
    NS_LOG_FUNCTION(n << w << target);
    if (w == 0)
    {
        return target == 0 ? 1 : 0;
    }
    if (n < w)
    {
        return 0;
    }
    const uint32_t bits = BitLength(syndromes, target);
    if (w == 1 || w == 2)
    {
        ValueCounter vc(syndromes, bits);
        return (w == 1) ? vc.Get(target) : CountPairs(vc, target);
    }
    if (w == 3)
    {
        // T = sum over pairs {i<j} of #{k : s_k = s_i^s_j^t}, k unrestricted.
        // k = i happens iff s_j = t, k = j iff s_i = t: (n-1) m_t such terms in
        // total. Every 3-set is then counted once per each of its 3 pairs.
        ValueCounter vc(syndromes, bits);
        uint64_t total = 0;
        for (std::size_t i = 0; i < n; ++i)
        {
            const uint32_t u = syndromes[i] ^ target;
            for (std::size_t j = i + 1; j < n; ++j)
            {
                total += vc.Get(u ^ syndromes[j]);
            }
        }
        const uint64_t degenerate = (n - 1) * vc.Get(target);
        NS_ASSERT(total >= degenerate && (total - degenerate) % 3 == 0);
        return (total - degenerate) / 3;
    }
    // w == 4. With c_v the number of pairs with XOR v, S = sum_v c_v c_(v^t)
    // counts ordered pairs of pairs (P, Q) with XOR(P)^XOR(Q) = t. For t = 0
    // it includes the numPairs cases P = Q; otherwise P != Q and each
    // unordered {P, Q} is seen twice. An unordered {P, Q} either is disjoint
    // (P u Q is a 4-set with XOR t, each 4-set found once per each of its 3
    // pair partitions) or shares one position a: P = {a,b}, Q = {a,c} with
    // s_b ^ s_c = t, i.e. c_t choices of {b,c} times n-2 choices of a.
    PairStats st = (bits <= ARRAY_BITS_PAIRS) ? PairStatsByArray(syndromes, target, bits)
                                              : PairStatsBySorting(syndromes, target);
    const uint64_t numPairs = n * (n - 1) / 2;
    const uint64_t unordered = (target == 0) ? (st.sumProducts - numPairs) / 2 : st.sumProducts / 2;
    const uint64_t shared = (n - 2) * st.pairsAtT;
    NS_ASSERT(unordered >= shared && (unordered - shared) % 3 == 0);
    return (unordered - shared) / 3;
}

std::vector<uint64_t>
WeightSpectrum::Spectrum(const std::vector<uint32_t>& syndromes, uint32_t maxWeight)
{
    RIFL_CHECK_ARG(maxWeight < 1 || maxWeight > 4, "WeightSpectrum::Spectrum: maxWeight = "
                                                       << maxWeight << " is out of range [1, 4]");
    std::vector<uint64_t> a(maxWeight + 1, 0);
    for (uint32_t w = 0; w <= maxWeight; ++w)
    {
        a[w] = Count(syndromes, w, 0);
    }
    return a;
}

double
WeightSpectrum::UndetectedProbability(const std::vector<uint64_t>& spectrum, uint32_t n, double ber)
{
    RIFL_CHECK_ARG(!(ber >= 0.0 && ber < 1.0), "WeightSpectrum::UndetectedProbability: ber = "
                                                   << ber << " is out of range [0, 1)");
    RIFL_CHECK_ARG(spectrum.empty(),
                   "WeightSpectrum::UndetectedProbability: spectrum is empty (give A_0..A_W)");
    if (ber == 0.0)
    {
        return 0.0;
    }
    const double logP = std::log(ber);
    const double log1mP = std::log1p(-ber);
    double sum = 0.0;
    for (uint32_t w = 1; w < spectrum.size(); ++w)
    {
        if (spectrum[w] == 0)
        {
            continue;
        }
        RIFL_CHECK_ARG(w > n, "WeightSpectrum::UndetectedProbability: spectrum A_"
                                  << w << " = " << spectrum[w] << " is nonzero but n = " << n
                                  << " < " << w);
        const double logTerm = std::log(static_cast<double>(spectrum[w]))
                               + static_cast<double>(w) * logP
                               + static_cast<double>(n - w) * log1mP;
        sum += std::exp(logTerm);
    }
    return sum;
}

uint64_t
WeightSpectrum::CountBruteForce(const std::vector<uint32_t>& syndromes, uint32_t w, uint32_t target)
{
    RIFL_CHECK_ARG(syndromes.empty(), "WeightSpectrum::CountBruteForce: syndromes is empty "
                                      "(the map needs >= 1 position)");
    const uint64_t n = syndromes.size();
    const double subsets = BinomialDouble(n, w);
    RIFL_CHECK_ARG(subsets > MAX_BRUTE_FORCE_SUBSETS,
                   "WeightSpectrum::CountBruteForce: w = "
                       << w << " with syndromes.size() = " << n << " gives " << subsets
                       << " subsets, above the limit " << MAX_BRUTE_FORCE_SUBSETS);
    if (w == 0)
    {
        return target == 0 ? 1 : 0;
    }
    if (w > n)
    {
        return 0;
    }
    // Walk all w-subsets idx[0] < ... < idx[w-1] in lexicographic order,
    // keeping partial XORs acc[k] = s_idx[0] ^ ... ^ s_idx[k].
    std::vector<uint64_t> idx(w);
    std::vector<uint32_t> acc(w);
    for (uint32_t k = 0; k < w; ++k)
    {
        idx[k] = k;
        acc[k] = (k == 0 ? 0 : acc[k - 1]) ^ syndromes[k];
    }
    uint64_t count = 0;
    while (true)
    {
        if (acc[w - 1] == target)
        {
            ++count;
        }
        // Advance: find the rightmost index that can move.
        int64_t k = static_cast<int64_t>(w) - 1;
        while (k >= 0 && idx[k] == n - w + static_cast<uint64_t>(k))
        {
            --k;
        }
        if (k < 0)
        {
            break;
        }
        ++idx[k];
        for (auto m = static_cast<uint32_t>(k); m < w; ++m)
        {
            if (m > static_cast<uint32_t>(k))
            {
                idx[m] = idx[m - 1] + 1;
            }
            acc[m] = (m == 0 ? 0 : acc[m - 1]) ^ syndromes[idx[m]];
        }
    }
    return count;
}

} // namespace ns3
