package org.mcountkit.kernelcheck;

import java.util.List;
import java.util.Map;

/**
 * One row of {@code machines.conf}: how to configure, build and boot a kernel for one ARCH of
 * {@code bin/kernel-check}. {@code enables} and {@code disables} hold each release's whole list:
 * the row's enable (disable) options, and for a release other than the default its own
 * enable-RELEASE (disable-RELEASE) ones after them. {@code clangRefusals}: the releases Linux does not
 * build this machine with clang-19 at all, each with why.
 */
public record Machine(
        String arch,
        String karch,
        String cross,
        String nativeHost,
        String compilerPackage,
        Map<Release, List<String>> enables,
        Map<Release, List<String>> disables,
        Map<String, String> values,
        String qemuPackage,
        List<String> qemu,
        String image,
        String console,
        String append,
        int word,
        boolean stopAtPanic,
        Init init,
        String busyboxArch,
        String libcPackage,
        String perLinkRecipe,
        boolean moduleInitFreed,
        Map<Release, String> clangRefusals) {

    /** The /init of the --modules and --prune initramfs. */
    public enum Init {
        /** Debian's busybox-static of {@code busyboxArch} running modules-init.sh or prune-init.sh. */
        BUSYBOX,
        /** kcinit.c linked -static by the machine's cross gcc against {@code libcPackage}. */
        KCINIT
    }

    /** Every release has its lists, so {@link #enable} and {@link #disable} always answer. */
    public Machine {
        enables = Map.copyOf(enables);
        disables = Map.copyOf(disables);
        for (Release release : Release.values()) {
            if (!enables.containsKey(release) || !disables.containsKey(release)) {
                throw new IllegalArgumentException(arch + ": no options for Linux " + release.version());
            }
        }
        values = Map.copyOf(values);
        clangRefusals = Map.copyOf(clangRefusals);
    }

    /** The options set y on top of the configuration when building {@code release}. */
    public List<String> enable(Release release) {
        return enables.get(release);
    }

    /** The options kept off when building {@code release}. */
    public List<String> disable(Release release) {
        return disables.get(release);
    }

    /** CROSS_COMPILE on a host whose {@code uname -m} is {@code host}: none on the native host. */
    public String crossOn(String host) {
        return host.equals(nativeHost) ? "" : cross;
    }

    /** The Debian package of the compiler on {@code host}. */
    public String compilerPackageOn(String host) {
        return host.equals(nativeHost) ? "gcc" : compilerPackage;
    }

    /**
     * The patch --per-link builds {@code release} with, relative to the checkout: docs/RECIPE.patch
     * for 6.1, docs/RECIPE-6.12.patch for 6.12 (Kbuild's files moved between the two, so each
     * release has its own; a recipe not written for a release has no file).
     */
    public String perLinkPatch(Release release) {
        return "docs/" + perLinkRecipe + release.suffix() + ".patch";
    }

    /**
     * True when --per-link makes the table after the first kallsyms link (docs/post-link.patch:
     * powerpc64, whose vmlinux does not link from vmlinux.o) instead of recording vmlinux.o.
     */
    public boolean postLink() {
        return perLinkRecipe.equals("post-link");
    }
}
