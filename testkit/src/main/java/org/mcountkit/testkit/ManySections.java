package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.function.IntFunction;

/**
 * x86_64 assembler for objects with very many sections, the kind an {@code ld -r} of a kernel or
 * a {@code -ffunction-sections} build yields. Function {@code i} lives alone in
 * {@code .text.f<i>}, starts with {@code i % 4} one-byte NOPs and then calls the hook, so its
 * site sits at offset {@code i % 4}. GNU as gives {@code 7 + 2 * functions + extraSections}
 * sections (each function's section and its {@code .rela}), one more ({@code .symtab_shndx}) once
 * that reaches {@code 0xff00}, and switches to extended numbering ({@code e_shnum == 0}) there.
 */
public final class ManySections {

    /** How function {@code i} is named in the symbol table. */
    public enum Kind {
        GLOBAL,
        WEAK,
        /** No symbol at all: the section has nothing a table entry could be relative to. */
        ANONYMOUS
    }

    private ManySections() {}

    /** Offset of the call in function {@code i}'s section. */
    public static int siteOffset(int i) {
        return i % 4;
    }

    /** Assembler text for {@code functions} functions plus {@code extraSections} empty data sections. */
    public static String source(int functions, int extraSections, String hook, IntFunction<Kind> kind) {
        StringBuilder s = new StringBuilder(functions * 96);
        for (int i = 0; i < functions; i++) {
            s.append("\t.section .text.f").append(i).append(",\"ax\",@progbits\n");
            Kind k = kind.apply(i);
            if (k != Kind.ANONYMOUS) {
                s.append(k == Kind.WEAK ? "\t.weak f" : "\t.globl f").append(i).append('\n');
                s.append("\t.type f")
                        .append(i)
                        .append(",@function\nf")
                        .append(i)
                        .append(":\n");
            }
            s.append("\tnop\n".repeat(siteOffset(i)));
            s.append("\tcall ").append(hook).append("\n\tret\n");
            if (k != Kind.ANONYMOUS) {
                s.append("\t.size f").append(i).append(",.-f").append(i).append('\n');
            }
        }
        for (int i = 0; i < extraSections; i++) {
            s.append("\t.section .data.pad")
                    .append(i)
                    .append(",\"aw\",@progbits\n\t.byte ")
                    .append(i & 0xff)
                    .append('\n');
        }
        return s.toString();
    }

    /** Writes the source to {@code dir/name.s} and assembles it with the host's GNU as into {@code dir/name.o}. */
    public static Path assemble(Path dir, String name, String source) {
        Path asm = Samples.write(dir, name + ".s", source);
        Path object = dir.resolve(name + ".o");
        Toolchain.X86_64.run("as", "-o", object.toString(), asm.toString());
        return object;
    }
}
