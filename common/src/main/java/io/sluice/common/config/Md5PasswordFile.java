package io.sluice.common.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads a BGP session's TCP MD5 password (RFC 2385) from its own file, so that the password is never in the node
 * YAML. The file must be a regular file owned by the user running this JVM (the controller's user), readable by
 * nobody else (no group or other permission bits), holding the password on one line (a trailing newline is
 * dropped), 1..80 bytes (Linux's TCP_MD5SIG_MAXKEYLEN).
 */
public final class Md5PasswordFile
{
    public static final int MAX_BYTES = 80;

    private static final Set<PosixFilePermission> GROUP_OR_OTHER = EnumSet.of(
        PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
        PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private Md5PasswordFile()
    {
    }

    /**
     * Checks the file and reads the password.
     *
     * @param file  the configuration file, for messages.
     * @param field the field that names the password file, for messages.
     * @param path  the password file.
     * @return the password's bytes.
     * @throws ConfigException when the file is missing, not a regular file, owned by another user, readable by group
     *                         or others, empty, longer than 80 bytes or holds more than one line.
     */
    public static byte[] read(final String file, final String field, final Path path) throws ConfigException
    {
        final PosixFileAttributes attributes;
        try
        {
            attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new ConfigException(file, field, "cannot read the MD5 password file " + path + ": " + ex);
        }
        if (!attributes.isRegularFile())
        {
            throw new ConfigException(file, field, path + " is not a regular file (symbolic links are refused)");
        }
        final String user = System.getProperty("user.name");
        if (!attributes.owner().getName().equals(user))
        {
            throw new ConfigException(file, field, path + " is owned by " + attributes.owner().getName() +
                "; it must be owned by " + user + ", the user the controller runs as");
        }
        final Set<PosixFilePermission> loose = EnumSet.noneOf(PosixFilePermission.class);
        loose.addAll(attributes.permissions());
        loose.retainAll(GROUP_OR_OTHER);
        if (!loose.isEmpty())
        {
            throw new ConfigException(file, field, path + " is accessible to group or others (" +
                PosixFilePermissions.toString(attributes.permissions()) +
                "): chmod 600 it");
        }
        byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(path);
        }
        catch (final IOException ex)
        {
            throw new ConfigException(file, field, "cannot read the MD5 password file " + path + ": " + ex);
        }
        if (bytes.length > 0 && bytes[bytes.length - 1] == '\n')
        {
            bytes = Arrays.copyOf(bytes, bytes.length - 1);
        }
        for (final byte b : bytes)
        {
            if (b == '\n' || b == '\r' || b == 0)
            {
                throw new ConfigException(file, field, path + " holds more than one line or a NUL byte; expected " +
                    "the password alone on one line");
            }
        }
        if (bytes.length == 0 || bytes.length > MAX_BYTES)
        {
            throw new ConfigException(file, field, path + " holds a password of " + bytes.length + " bytes; " +
                "expected 1.." + MAX_BYTES);
        }
        return bytes;
    }
}
