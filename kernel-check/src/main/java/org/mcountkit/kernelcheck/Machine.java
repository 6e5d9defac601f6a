package org.mcountkit.kernelcheck;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One row of {@code machines.conf}: how to configure, build and boot a kernel for one ARCH of
 * {@code bin/kernel-check}.
 */
public record Machine(
        String arch,
        String karch,
        String cross,
        String nativeHost,
        String compilerPackage,
        List<String> enable,
        List<String> disable,
        List<String> enable612,
        List<String> disable612,
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
        boolean moduleInitFreed) {

    /** The /init of the --modules and --prune initramfs. */
    public enum Init {
        /** Debian's busybox-static of {@code busyboxArch} running modules-init.sh or prune-init.sh. */
        BUSYBOX,
        /** kcinit.c linked -static by the machine's cross gcc against {@code libcPackage}. */
        KCINIT
    }

    /** The options set y on top of the configuration for Linux {@code linux}: the row's, and on 6.12 its enable-6.12. */
    public List<String> enable(String linux) {
        return linux.equals("6.12") ? concat(enable, enable612) : enable;
    }

    public Machine {
        values = Map.copyOf(values);
    }

    /** The options kept off for Linux {@code linux}: the row's, and on 6.12 its disable-6.12. */
    public List<String> disable(String linux) {
        return linux.equals("6.12") ? concat(disable, disable612) : disable;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
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
     * The patch --per-link builds Linux {@code linux} with, relative to the checkout:
     * docs/RECIPE.patch for 6.1, docs/RECIPE-6.12.patch for 6.12 (Kbuild's files moved between
     * the two, so each release has its own; a recipe not written for a release has no file).
     */
    public String perLinkPatch(String linux) {
        return "docs/" + perLinkRecipe + (linux.equals("6.1") ? "" : "-" + linux) + ".patch";
    }

    /**
     * True when --per-link makes the table after the first kallsyms link (docs/post-link.patch:
     * powerpc64, whose vmlinux does not link from vmlinux.o) instead of recording vmlinux.o.
     */
    public boolean postLink() {
        return perLinkRecipe.equals("post-link");
    }
}
