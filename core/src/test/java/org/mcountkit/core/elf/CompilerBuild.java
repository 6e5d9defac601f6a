package org.mcountkit.core.elf;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Section;
import org.mcountkit.testkit.Toolchain;

/**
 * The object kinds the installed compilers make, with the ELF facts each must have: ELF32 and
 * ELF64, both byte orders, REL and RELA. {@code tableRelocation} is the machine's absolute
 * pointer relocation (glibc elf.h: R_X86_64_64, R_386_32, R_AARCH64_ABS64, R_RISCV_64/32) and
 * {@code ldFlags} what its {@code ld -r} needs to accept the object.
 */
enum CompilerBuild {
    X86_64_FENTRY(
            Toolchain.X86_64,
            62,
            ElfClass.ELF64,
            Endian.LITTLE,
            Section.SHT_RELA,
            "__fentry__",
            1,
            new String[] {},
            "-pg",
            "-mfentry"),
    I386_PG(Toolchain.I386, 3, ElfClass.ELF32, Endian.LITTLE, Section.SHT_REL, "mcount", 1, new String[] {}, "-pg"),
    AARCH64_PG(
            Toolchain.AARCH64,
            183,
            ElfClass.ELF64,
            Endian.LITTLE,
            Section.SHT_RELA,
            "_mcount",
            257,
            new String[] {},
            "-pg"),
    AARCH64_BIG_ENDIAN_PG(
            Toolchain.AARCH64,
            183,
            ElfClass.ELF64,
            Endian.BIG,
            Section.SHT_RELA,
            "_mcount",
            257,
            new String[] {"-EB"},
            "-mbig-endian",
            "-pg"),
    RISCV64_PG(
            Toolchain.RISCV64,
            243,
            ElfClass.ELF64,
            Endian.LITTLE,
            Section.SHT_RELA,
            "_mcount",
            2,
            new String[] {},
            "-pg"),
    RISCV32_PG(
            Toolchain.RISCV64,
            243,
            ElfClass.ELF32,
            Endian.LITTLE,
            Section.SHT_RELA,
            "_mcount",
            1,
            new String[] {"-m", "elf32lriscv"},
            "-march=rv32gc",
            "-mabi=ilp32d",
            "-pg");

    static final int EM_AARCH64 = 183;

    final Toolchain toolchain;
    final int machine;
    final ElfClass elfClass;
    final Endian endian;
    final int relocationSectionType;
    final String hook;
    final int tableRelocation;
    final String[] ldFlags;
    final String[] flags;

    CompilerBuild(
            Toolchain toolchain,
            int machine,
            ElfClass elfClass,
            Endian endian,
            int relocationSectionType,
            String hook,
            int tableRelocation,
            String[] ldFlags,
            String... flags) {
        this.toolchain = toolchain;
        this.machine = machine;
        this.elfClass = elfClass;
        this.endian = endian;
        this.relocationSectionType = relocationSectionType;
        this.hook = hook;
        this.tableRelocation = tableRelocation;
        this.ldFlags = ldFlags;
        this.flags = flags;
    }

    boolean rela() {
        return relocationSectionType == Section.SHT_RELA;
    }

    /** Compiles {@code source} with this build's flags plus {@code extra}. */
    Path compile(Path source, Path out, String... extra) {
        return toolchain.compile(
                source, out, Stream.concat(Stream.of(flags), Stream.of(extra)).toArray(String[]::new));
    }

    /** {@code ld -r} of one object. */
    Path linkRelocatable(Path object, Path out) {
        String[] args = Stream.concat(Stream.of(ldFlags), Stream.of("-r", object.toString(), "-o", out.toString()))
                .toArray(String[]::new);
        toolchain.run("ld", args);
        return out;
    }
}
