package org.mcountkit.core.scan;

import org.mcountkit.api.Section;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.image.TracedSections;

/**
 * A gcc {@code -flto} object: ELF whose {@code .gnu.lto_*} sections hold the compiler's
 * intermediate code, and whose code sections are empty; the machine code, with its calls to the
 * hook, only exists after the link. (With {@code -ffat-lto-objects} there is machine code too,
 * and its sites are found as in any object.) clang's {@code -flto} output is LLVM bitcode, not
 * ELF, and is refused when opened.
 */
public final class SlimLto {

    public static final String MESSAGE = "LTO bitcode: no machine code until the link; record the linked result";

    private SlimLto() {}

    /** True when {@code file} has gcc's LTO sections and no code section with bytes. */
    public static boolean is(ElfFile file) {
        boolean lto = false;
        for (Section s : file.sections()) {
            if (s.name().startsWith(".gnu.lto_")) {
                lto = true;
            } else if (TracedSections.isCode(s) && s.size() > 0) {
                return false;
            }
        }
        return lto;
    }
}
