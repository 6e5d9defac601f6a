package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --config's handful of modules: those the configuration leaves modules, with what they depend on. */
class FullSizeModulesTest {

    @TempDir
    Path dir;

    @Test
    void aHandfulModuleTheConfigurationBuildsInIsNotLoaded() throws IOException {
        // x86_64's defconfig: most of the crypto ones are selected built in by built-in options.
        Files.writeString(dir.resolve(".config"), """
                CONFIG_ISO9660_FS=m
                CONFIG_CRYPTO_MD5=y
                CONFIG_CRYPTO_SHA1=m
                # CONFIG_CRYPTO_ECB is not set
                CONFIG_CRYPTO_ECB_HELPER=m
                """);

        assertEquals(List.of("isofs", "sha1_generic"), FullSizeModules.names(dir));
        assertEquals(List.of("md5"), FullSizeModules.builtIn(dir), "ecb, not set, is neither");
    }

    @Test
    void theChosenComeWithWhatTheyDependOnInTheBuildsOrder() {
        List<Initramfs.Module> all = List.of(
                new Initramfs.Module("libsha1", "lib/crypto/libsha1.ko", List.of()),
                new Initramfs.Module("isofs", "fs/isofs/isofs.ko", List.of()),
                new Initramfs.Module("sha1_generic", "crypto/sha1_generic.ko", List.of("libsha1")),
                new Initramfs.Module("md5", "crypto/md5.ko", List.of()));

        List<String> chosen = FullSizeModules.chosen(all, List.of("isofs", "sha1_generic")).stream()
                .map(Initramfs.Module::name)
                .toList();

        assertEquals(List.of("libsha1", "isofs", "sha1_generic"), chosen);
    }
}
