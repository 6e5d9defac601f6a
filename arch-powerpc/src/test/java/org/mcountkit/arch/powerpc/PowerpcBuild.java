package org.mcountkit.arch.powerpc;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.mcountkit.testkit.NostdlibLink;
import org.mcountkit.testkit.Toolchain;

/** A PowerPC compiler, its flags and the hook written for its ABI, as the linked-program tests use them. */
enum PowerpcBuild {
    PPC32(Toolchain.PPC, List.of(), PowerpcSources.HOOK_PPC),
    PPC64_ELFV1(Toolchain.PPC64, List.of(), PowerpcSources.HOOK_ELFV1),
    PPC64LE(Toolchain.PPC64LE, List.of(), PowerpcSources.HOOK_ELFV2),
    PPC64LE_PROFILE_KERNEL(Toolchain.PPC64LE, List.of("-mprofile-kernel"), PowerpcSources.HOOK_ELFV2);

    final Toolchain toolchain;
    final List<String> flags;
    final String hook;

    PowerpcBuild(Toolchain toolchain, List<String> flags, String hook) {
        this.toolchain = toolchain;
        this.flags = flags;
        this.hook = hook;
    }

    /** {@code dir/NAME.o}: {@code source} compiled {@code -pg} with the flags, and {@code more}. */
    Path compile(Path dir, String name, String source, List<String> more) {
        return toolchain.compile(
                dir,
                name,
                source,
                Stream.of(List.of("-pg"), flags, more).flatMap(List::stream).toList());
    }

    /** How the tests link the hook with their objects. */
    NostdlibLink link() {
        return new NostdlibLink(toolchain, List.of(), hook);
    }
}
