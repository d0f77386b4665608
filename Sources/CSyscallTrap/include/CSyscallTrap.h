#ifndef CSYSCALLTRAP_H
#define CSYSCALLTRAP_H

// Why this shim exists: a sealed decoder child's filter traps a refused system call (SCMP_ACT_TRAP), and
// the SIGSYS handler that then tells the parent which call it was must be async-signal-safe C. The header
// includes no system header (their types would then belong to this module as well as to Glibc).

/// The descriptor a decoder child finds its parent's refusal pipe on.
#define CST_REFUSAL_DESCRIPTOR 3

/// What a child writes to its refusal pipe as it dies: the system call the filter refused, and the audit
/// architecture it was made under.
struct cst_refusal {
    int number;
    unsigned int architecture;
};

/// Installs the SIGSYS handler that writes a `cst_refusal` to `CST_REFUSAL_DESCRIPTOR`, then dies by the
/// same signal, as the filter's kill would have made it; 0, or -1 with errno.
int cst_report_refused_calls(void);

#endif
