package org.mcountkit.core.postlink;

import java.util.List;

/** One table of a linked image, checked: {@code verdicts.get(i)} is what {@link Verifier} says of entry i. */
record TableVerdicts(TableWords.Table table, List<Verdict> verdicts) {

    TableVerdicts {
        verdicts = List.copyOf(verdicts);
    }

    /** How many entries have the verdict {@code kind}. */
    int count(Verdict.Kind kind) {
        int n = 0;
        for (Verdict v : verdicts) {
            n += v.kind() == kind ? 1 : 0;
        }
        return n;
    }
}
