package org.mcountkit.core.image;

import java.util.HashMap;
import java.util.Map;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;

/**
 * Where the function descriptors of a relocatable object point (ppc64 ELFv1): a function
 * symbol there names its descriptor in {@code .opd}, whose first word is still 0 in an object;
 * the code address is the relocation of that word (R_PPC64_ADDR64 against {@code .text} or a
 * local label, plus the addend), as objdump reads it to name code {@code .g}.
 */
final class ObjectDescriptors {

    /** Descriptor offset in its section to where its code is. */
    private final Map<Long, Code> codeAt = new HashMap<>();

    /** The symbol the descriptor's relocation names ({@code .text}), and the code's value there. */
    private record Code(Symbol symbol, long value) {}

    private ObjectDescriptors() {}

    /** The descriptors of section {@code descriptors}, read through its relocations of the table word's type. */
    static ObjectDescriptors of(ElfImage image, Section descriptors) {
        ObjectDescriptors read = new ObjectDescriptors();
        int sections = image.file().sections().size();
        for (Section rs : image.relocationSectionsOf(descriptors.index())) {
            for (Relocation r : image.relocations(rs)) {
                if (r.type() != image.abi().tableRelocation() || r.symbolIndex() <= 0) {
                    continue;
                }
                Symbol code = image.file().symbolWithoutName(r.symbolIndex());
                if (code.isInSection() && code.sectionIndex() < sections) {
                    read.codeAt.put(r.offset(), new Code(code, code.value() + r.addend()));
                }
            }
        }
        return read;
    }

    /** {@code s}, a symbol at descriptor offset {@code s.value()}, moved to its code; else {@code s}. */
    Symbol atCode(Symbol s) {
        Code code = codeAt.get(s.value());
        if (code == null) {
            return s;
        }
        return new Symbol(
                s.index(),
                s.name(),
                code.value(),
                s.size(),
                s.binding(),
                s.type(),
                s.other(),
                code.symbol().sectionIndex(),
                code.symbol().extendedIndex());
    }
}
