/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_FUZZ_CHECK_H
#define RIFL_FUZZ_CHECK_H

/**
 * \file
 * \ingroup rifl
 * Helpers shared by the libFuzzer targets in fuzz/ (see tools/run-fuzz).
 *
 * A target aborts through RIFL_FUZZ_CHECK when a property fails, so that
 * libFuzzer reports the input as a crash and keeps it (crash-<sha1>). An
 * exception other than the documented std::invalid_argument / std::out_of_range
 * of bad arguments escapes and is reported the same way.
 */

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

/**
 * \brief Abort with a message when \p cond is false (a property of the target failed).
 * \param cond the property.
 * \param msg what failed (streamed).
 */
#define RIFL_FUZZ_CHECK(cond, msg)                                                                \
    do                                                                                            \
    {                                                                                             \
        if (!(cond))                                                                              \
        {                                                                                         \
            std::ostringstream rifl_fuzz_oss_;                                                    \
            rifl_fuzz_oss_ << msg;                                                                \
            std::fprintf(stderr, "RIFL_FUZZ_CHECK failed at %s:%d: %s: %s\n", __FILE__, __LINE__, \
                         #cond, rifl_fuzz_oss_.str().c_str());                                    \
            std::abort();                                                                         \
        }                                                                                         \
    } while (false)

/**
 * \brief Deterministic message bytes (xorshift32 from \p seed), so that a
 *        receiver can check content from a message's identity alone.
 * \param seed the stream's start (a function of the message's identity).
 * \param n the size.
 * \return the bytes.
 */
inline std::vector<uint8_t>
RiflFuzzBytes(uint32_t seed, uint32_t n)
{
    std::vector<uint8_t> p(n);
    uint32_t x = seed;
    for (uint32_t i = 0; i < n; ++i)
    {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = static_cast<uint8_t>(x);
    }
    return p;
}

/**
 * \brief Read a sampling rate K from the environment.
 *
 * A bad value stops the target with a message naming the variable and its range.
 *
 * \param name the variable (RIFL_FUZZ_REFERENCE_EVERY or RIFL_FUZZ_LAZY_EVERY).
 * \param what what one input in K runs (for the message).
 * \return K (1 when the variable is unset or empty).
 */
inline uint64_t
RiflFuzzEvery(const char* name, const char* what)
{
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0')
    {
        return 1;
    }
    char* end = nullptr;
    const unsigned long long k = std::strtoull(v, &end, 10);
    if (*end != '\0' || k < 1 || k > 0xFFFFFFFFull || v[0] == '-')
    {
        std::fprintf(stderr,
                     "%s='%s': expected an integer in [1, 4294967295] (run %s on one input in "
                     "K)\n",
                     name, v, what);
        std::exit(2);
    }
    return static_cast<uint64_t>(k);
}

/**
 * \brief Whether one input in K is selected, by an FNV-1a hash of the input bytes
 *        and a salt, so the choice is a function of the input alone (a reproducer
 *        reproduces, and libFuzzer sees the same coverage each time it runs an input)
 *        and two samplings with different salts are independent.
 * \param every K (1: every input).
 * \param salt the sampling's salt.
 * \param data the input.
 * \param size its size.
 * \return true when the input is selected.
 */
inline bool
RiflFuzzSampled(uint64_t every, uint8_t salt, const uint8_t* data, size_t size)
{
    if (every == 1)
    {
        return true;
    }
    uint64_t h = 0xcbf29ce484222325ull;
    if (salt != 0)
    {
        h = (h ^ salt) * 0x100000001b3ull; // salt 0: plain FNV-1a of the input
    }
    for (size_t i = 0; i < size; ++i)
    {
        h = (h ^ data[i]) * 0x100000001b3ull;
    }
    return h % every == 0;
}

/**
 * \brief Whether an engine target also runs the reference slot engine on this
 *        input and compares it with the fast engine.
 *
 * The reference engine steps every slot of every lane, so it costs one to two
 * orders of magnitude more than the fast engine; a run of 10^7 executions with it
 * on every input would take CPU-weeks. RIFL_FUZZ_REFERENCE_EVERY=K (1..2^32-1,
 * default 1: every input) selects one input in K (RiflFuzzSampled(), salt 0). The
 * fast engine and its accounting checks run on every input.
 *
 * \param data the input.
 * \param size its size.
 * \return true when the reference engine runs on this input.
 */
inline bool
RiflFuzzRunReference(const uint8_t* data, size_t size)
{
    static const uint64_t every
        = RiflFuzzEvery("RIFL_FUZZ_REFERENCE_EVERY", "the reference engine");
    return RiflFuzzSampled(every, 0, data, size);
}

/**
 * \brief Whether the rifl-engine target also runs the fast engine a second time
 *        with lazy TX wake-ups (RiflLinkEngine::SetTxEventWakes()) on this input
 *        and compares the two runs.
 *
 * That second run doubles the cost of an input. RIFL_FUZZ_LAZY_EVERY=K (1..2^32-1,
 * default 1: every input) selects one input in K (RiflFuzzSampled(), salt 1), for
 * long runs.
 *
 * \param data the input.
 * \param size its size.
 * \return true when the lazy-wake run happens on this input.
 */
inline bool
RiflFuzzRunLazy(const uint8_t* data, size_t size)
{
    static const uint64_t every
        = RiflFuzzEvery("RIFL_FUZZ_LAZY_EVERY", "the fast engine's lazy TX wake-up comparison");
    return RiflFuzzSampled(every, 1, data, size);
}

/**
 * \brief Whether the rifl-engine target also runs the fast engine without jumps
 *        (RiflFastEngine::SetJumps(false): every slot stepped) on this input and
 *        compares it with the fast engine, event by event.
 *
 * This checks every quiescent and loaded jump's entry conditions on every input at a
 * fraction of the reference engine's cost (the fast engine's per-slot rules are the
 * reference's, checked against it on the inputs RiflFuzzRunReference() selects).
 * RIFL_FUZZ_STEPPED_EVERY=K (1..2^32-1, default 1: every input) selects one input in
 * K (RiflFuzzSampled(), salt 2).
 *
 * \param data the input.
 * \param size its size.
 * \return true when the stepped run happens on this input.
 */
inline bool
RiflFuzzRunStepped(const uint8_t* data, size_t size)
{
    static const uint64_t every
        = RiflFuzzEvery("RIFL_FUZZ_STEPPED_EVERY", "the fast engine's run without jumps");
    return RiflFuzzSampled(every, 2, data, size);
}

#endif /* RIFL_FUZZ_CHECK_H */
