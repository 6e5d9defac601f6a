package org.mcountkit.arch.mips;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.mcountkit.testkit.NostdlibLink;
import org.mcountkit.testkit.Toolchain;

/** A MIPS compiler with its kernel flags, as the linked-program tests compile and link with it. */
enum MipsBuild {
    MIPS(Toolchain.MIPS, true),
    MIPSEL(Toolchain.MIPSEL, true),
    MIPS64(Toolchain.MIPS64, false),
    MIPS64EL(Toolchain.MIPS64EL, false);

    final Toolchain toolchain;
    final boolean o32;

    MipsBuild(Toolchain toolchain, boolean o32) {
        this.toolchain = toolchain;
        this.o32 = o32;
    }

    List<String> flags() {
        return o32
                ? List.of("-mabi=32", "-march=mips32r2", "-mno-abicalls", "-mmcount-ra-address")
                : List.of("-mabi=64", "-march=mips64r2", "-mno-abicalls");
    }

    int siteLength() {
        return o32 ? 8 : 4;
    }

    /** {@code dir/NAME.o}: {@code source} compiled {@code -pg} with the flags, and {@code more}. */
    Path compile(Path dir, String name, String source, List<String> more) {
        return toolchain.compile(
                dir,
                name,
                source,
                Stream.of(List.of("-pg"), flags(), more).flatMap(List::stream).toList());
    }

    /** How the tests link {@link MipsSources#hook} with their objects. */
    NostdlibLink link() {
        return new NostdlibLink(toolchain, flags(), MipsSources.hook(o32));
    }
}
