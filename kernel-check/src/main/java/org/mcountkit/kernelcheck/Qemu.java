package org.mcountkit.kernelcheck;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Boots one kernel under QEMU. ftrace_init() checks every table entry's
 * bytes and turns it into a NOP, prints "ftrace: allocating N entries", then the start-up
 * self-tests print "Testing ...: PASSED"; without a root file system the kernel then panics, and
 * with panic=-1 and -no-reboot QEMU exits. With an initramfs, its init powers off instead.
 */
final class Qemu {

    private Qemu() {}

    /** The QEMU command line for the kernel {@code image}, with {@code initrd} when not null. */
    static List<String> command(Machine machine, Path image, Path initrd) {
        List<String> command = new ArrayList<>(machine.qemu());
        command.addAll(List.of("-nographic", "-no-reboot", "-nic", "none", "-kernel", image.toString()));
        if (initrd != null) {
            command.addAll(List.of("-initrd", initrd.toString()));
        }
        StringBuilder append = new StringBuilder();
        if (!machine.console().isEmpty()) {
            append.append("console=").append(machine.console()).append(' ');
        }
        if (!machine.append().isEmpty()) {
            append.append(machine.append()).append(' ');
        }
        append.append("panic=-1");
        command.addAll(List.of("-append", append.toString()));
        return command;
    }

    /** Boots the kernel of {@code dir}; writes boot.log, boot.txt (no carriage returns) and boot.status. */
    static void boot(Setup setup, Path dir, Path initrd) {
        boot(setup, dir, dir.resolve(setup.machine().image()), initrd);
    }

    /** Boots the kernel {@code image}, writing the logs into {@code dir}. */
    static void boot(Setup setup, Path dir, Path image, Path initrd) {
        Machine machine = setup.machine();
        Setup.say(setup.arch() + ": booting the " + dir.getFileName() + " kernel");
        Path log = dir.resolve("boot.log");
        List<String> command = new ArrayList<>(List.of("timeout", "-k", "10", Integer.toString(setup.bootTimeout())));
        command.addAll(command(machine, image, initrd));
        try {
            Process qemu = new ProcessBuilder(command)
                    .redirectInput(new File("/dev/null"))
                    .redirectOutput(log.toFile())
                    .redirectErrorStream(true)
                    .start();
            if (machine.stopAtPanic()) {
                // QEMU keeps running after the panic: a few seconds after the panic line, for the rest of the message.
                while (!qemu.waitFor(1, TimeUnit.SECONDS)) {
                    if (Processes.text(log).contains("Kernel panic - not syncing")) {
                        Thread.sleep(3000);
                        qemu.destroy();
                        break;
                    }
                }
            }
            int status = qemu.waitFor();
            Processes.write(dir.resolve("boot.txt"), Processes.text(log).replace("\r", ""));
            Processes.write(dir.resolve("boot.status"), status + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KernelCheckException("interrupted while booting " + dir);
        }
    }
}
