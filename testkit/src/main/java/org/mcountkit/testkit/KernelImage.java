package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A kernel-like image built the way Linux links vmlinux, at a test's scale: objects linked with a
 * linker script that gives the kernel's section symbols ({@code _text}, {@code _stext..._etext} with {@code .noinstr.text} between
 * {@code __noinstr_text_start} and {@code __noinstr_text_end},
 * {@code __init_begin}, {@code _sinittext.._einittext}, the table between
 * {@code __start_mcount_loc} and {@code __stop_mcount_loc}, {@code __init_end}), then the
 * kernel's own {@code scripts/kallsyms} run on {@code nm -n} of the link and its tables linked in,
 * twice, as {@code scripts/link-vmlinux.sh} does until the symbols stop moving. The table is all
 * of {@code .init.data}; the init text starts with a pad, so that no function shares its address
 * with {@code _sinittext}.
 */
public final class KernelImage {

    private KernelImage() {}

    /** x86's {@code __fentry__}, a bare return, as {@code dir/hook.o}: linked first, so no C function shares {@code _text}'s address. */
    public static Path fentryHook(Path dir, Toolchain toolchain) {
        Path source = Samples.write(dir, "hook.s", """
                .text
                .globl __fentry__
                .type __fentry__, @function
                __fentry__:
                ret
                .size __fentry__, . - __fentry__
                .section .note.GNU-stack, "", @progbits
                """);
        Path object = dir.resolve("hook.o");
        toolchain.run("as", "-o", object.toString(), source.toString());
        return object;
    }

    /**
     * An x86_64 kernel-like image of {@code objects} and the {@link #fentryHook}, at x86_64's
     * kernel address, its tables by 6.1's {@code scripts/kallsyms --base-relative}.
     */
    public static Path x86_64(Path dir, List<Path> objects) {
        List<Path> all = new java.util.ArrayList<>(List.of(fentryHook(dir, Toolchain.X86_64)));
        all.addAll(objects);
        return link(
                dir,
                Toolchain.X86_64,
                true,
                0xffffffff81000000L,
                KallsymsTool.LINUX_6_1,
                List.of("--base-relative"),
                all);
    }

    /** The linker script, with text at {@code textAddress}. */
    static String script(long textAddress) {
        return String.format("""
                ENTRY(_text)
                SECTIONS {
                  . = 0x%x;
                  _text = .;
                  .text : {
                    _stext = .;
                    *(.text .text.*)
                    __noinstr_text_start = .;
                    *(.noinstr.text)
                    __noinstr_text_end = .;
                    _etext = .;
                  }
                  .rodata : { *(.rodata .rodata.*) }
                  . = ALIGN(4096);
                  __init_begin = .;
                  .init.text : { _sinittext = .; LONG(0); . = ALIGN(16); *(.init.text) _einittext = .; }
                  . = ALIGN(8);
                  .init.data : {
                    __start_mcount_loc = .;
                    KEEP(*(__mcount_loc))
                    __stop_mcount_loc = .;
                  }
                  . = ALIGN(4096);
                  __init_end = .;
                  .data : { *(.data .data.*) }
                  .bss : { *(.bss .bss.*) }
                  /DISCARD/ : { *(.note.GNU-stack) *(.comment) *(.eh_frame) *(.note.gnu.property) }
                }
                """, textAddress);
    }

    /**
     * Links {@code objects} into {@code dir/vmlinux} with kallsyms tables written by
     * {@code kallsyms} with {@code flags} ({@code --base-relative}, {@code --absolute-percpu}).
     */
    public static Path link(
            Path dir,
            Toolchain toolchain,
            boolean wide,
            long textAddress,
            KallsymsTool kallsyms,
            List<String> flags,
            List<Path> objects) {
        return link(dir, toolchain, List.of(toolchain.tool("ld")), wide, textAddress, kallsyms, flags, objects);
    }

    /**
     * {@link #link(Path, Toolchain, boolean, long, KallsymsTool, List, List)} with the linker
     * command {@code linker} ({@code ld.lld-19 -pie}: a relocatable kernel whose pointers the
     * loader fills from relative relocations, their words left 0 by lld).
     */
    public static Path link(
            Path dir,
            Toolchain toolchain,
            List<String> linker,
            boolean wide,
            long textAddress,
            KallsymsTool kallsyms,
            List<String> flags,
            List<Path> objects) {
        Path script = Samples.write(dir, "vmlinux.lds", script(textAddress));
        Path tables = null;
        Path image = null;
        for (int pass = 1; pass <= 3; pass++) {
            image = dir.resolve(pass == 3 ? "vmlinux" : ".tmp_vmlinux.kallsyms" + pass);
            List<String> ld = new ArrayList<>(linker);
            ld.addAll(List.of("-T", script.toString(), "-o", image.toString()));
            objects.forEach(o -> ld.add(o.toString()));
            if (tables != null) {
                ld.add(tables.toString());
            }
            Command.check(dir, ld);
            if (pass == 3) {
                break;
            }
            String map = toolchain
                    .run("nm", "-n", image.toString())
                    .lines()
                    .filter(l -> !l.matches("^\\S+ [aNUw] .*") && !l.matches("^\\S+ \\S (\\$|\\.L).*"))
                    .collect(Collectors.joining("\n", "", "\n"));
            Path mapFile = Samples.write(dir, "kallsyms" + pass + ".map", map);
            List<String> run = new ArrayList<>(List.of(kallsyms.program().toString()));
            run.addAll(flags);
            run.add(mapFile.toString());
            String source = Command.check(dir, run).stdout();
            Path s = Samples.write(dir, "kallsyms" + pass + ".S", source);
            tables = dir.resolve("kallsyms" + pass + ".o");
            Command.check(
                    dir,
                    toolchain.tool("gcc"),
                    "-c",
                    "-I",
                    kallsyms.includeDir().toString(),
                    "-DBITS_PER_LONG=" + (wide ? 64 : 32),
                    s.toString(),
                    "-o",
                    tables.toString());
        }
        return image;
    }
}
