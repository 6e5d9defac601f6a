package org.mcountkit.api;

/**
 * Where a machine's relocations keep their addends, and so where a table word's value goes: the
 * one statement of that rule for the writers of tables and the reader of relocated entries.
 */
public enum AddendPlacement {
    /** {@code SHT_REL}: the relocated word is the addend (i386, ARM, MIPS o32). */
    IN_WORD(false, true),
    /** {@code SHT_RELA}: the addend is {@code r_addend}; the word holds 0. */
    IN_RELOCATION(true, false),
    /**
     * {@code SHT_RELA} whose linker adds the relocated word as well ({@code r_addend} plus the
     * word: SuperH's partial-inplace howtos): values go in the word, with {@code r_addend} 0, as
     * gas writes them.
     */
    IN_WORD_OF_RELA(true, true);

    private final boolean rela;
    private final boolean valueInWord;

    AddendPlacement(boolean rela, boolean valueInWord) {
        this.rela = rela;
        this.valueInWord = valueInWord;
    }

    /** Whether relocation sections are {@code SHT_RELA}. */
    public boolean rela() {
        return rela;
    }

    /** Whether a table word holds its value (else 0, the value in {@code r_addend}). */
    public boolean valueInWord() {
        return valueInWord;
    }

    /** What a linker adds to the symbol for relocation {@code r} over the word {@code word}. */
    public long addend(Relocation r, long word) {
        if (!r.explicitAddend()) {
            return word;
        }
        return r.addend() + (this == IN_WORD_OF_RELA ? word : 0);
    }

    /** This placement for a file whose relocation section is (or is not) RELA, as its own type says. */
    public AddendPlacement forSection(boolean relaSection) {
        if (relaSection == rela) {
            return this;
        }
        return relaSection ? IN_RELOCATION : IN_WORD;
    }
}
