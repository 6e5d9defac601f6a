package org.mcountkit.core.postlink;

import org.mcountkit.core.Verification;

/**
 * What {@link Verifier} says of one table entry: zero (skipped, as the kernel skips it), a site
 * (the call or NOP, inside a function), a site outside any function, or bad; the last two with
 * the finding {@code verify} reports for them, null for the others.
 */
record Verdict(Kind kind, Verification.Finding finding) {

    enum Kind {
        ZERO,
        SITE,
        OUTSIDE_FUNCTION,
        BAD
    }

    static final Verdict ZERO = new Verdict(Kind.ZERO, null);
    static final Verdict SITE = new Verdict(Kind.SITE, null);

    static Verdict outsideFunction(Verification.Finding finding) {
        return new Verdict(Kind.OUTSIDE_FUNCTION, finding);
    }

    static Verdict bad(Verification.Finding finding) {
        return new Verdict(Kind.BAD, finding);
    }
}
