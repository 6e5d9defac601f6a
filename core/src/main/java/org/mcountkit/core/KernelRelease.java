package org.mcountkit.core;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kernel's version as far as ftrace's rules depend on it: major and minor ({@code 6.12}), from
 * the image's {@code linux_banner} ("Linux version 6.12.117 ...") or given by the user.
 */
public record KernelRelease(int major, int minor) implements Comparable<KernelRelease> {

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)");
    private static final Pattern BANNER = Pattern.compile("^Linux version (\\d+)\\.(\\d+)");

    /**
     * {@code 6.1}, {@code 6.12.117} or {@code 6.12.0-rc1}: the first two numbers count.
     *
     * @throws IllegalArgumentException when the text does not start with two numbers
     */
    public static KernelRelease parse(String text) {
        Matcher m = VERSION.matcher(text);
        if (!m.lookingAt()) {
            throw new IllegalArgumentException("'" + text + "' is not a kernel release such as 6.1 or 6.12");
        }
        return new KernelRelease(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** The release a {@code linux_banner} string names; empty when it is not one. */
    public static Optional<KernelRelease> ofBanner(String banner) {
        Matcher m = BANNER.matcher(banner);
        return m.find()
                ? Optional.of(new KernelRelease(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
                : Optional.empty();
    }

    public boolean atLeast(int major, int minor) {
        return compareTo(new KernelRelease(major, minor)) >= 0;
    }

    @Override
    public int compareTo(KernelRelease o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
