package org.mcountkit.api;

/** Where a call site was learned from; the {@code source} field of the JSON report. */
public enum SiteSource {
    /** A relocation against the hook, checked against the bytes it patches. */
    RELOCATION("relocation"),
    /** An entry of an existing {@code __mcount_loc} table. */
    MCOUNT_LOC("mcount_loc"),
    /** An entry of {@code __patchable_function_entries}. */
    PATCHABLE_FUNCTION_ENTRIES("patchable_function_entries"),
    /** Decoded from the machine code of a linked image. */
    DECODED("decoded");

    private final String label;

    SiteSource(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
