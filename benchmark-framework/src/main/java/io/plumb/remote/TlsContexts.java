package io.plumb.remote;

import io.plumb.input.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for the control channel from keystore files (PKCS12 or JKS, as {@link KeyStore} detects): the
 * worker's key and certificate, and the coordinator's trusted certificates.
 */
public final class TlsContexts {
  private TlsContexts() {}

  /** The worker's side: its own key and certificate. */
  public static SSLContext server(Path keystore, Path passwordFile, String option) {
    try {
      char[] password = password(passwordFile, option);
      KeyStore store = load(keystore, password, option);
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new BadInputException(option + ": " + keystore + ": " + e.getMessage());
    }
  }

  /** The coordinator's side: whom to trust. */
  public static SSLContext client(Path truststore, Path passwordFile, String option) {
    try {
      KeyStore store = load(truststore, password(passwordFile, option), option);
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new BadInputException(option + ": " + truststore + ": " + e.getMessage());
    }
  }

  private static char[] password(Path file, String option) {
    if (file == null) {
      return new char[0];
    }
    try {
      return Files.readString(file).strip().toCharArray();
    } catch (IOException e) {
      throw new BadInputException(option + ": cannot read password file " + file);
    }
  }

  private static KeyStore load(Path file, char[] password, String option)
      throws GeneralSecurityException {
    // KeyStore.getInstance throws IllegalArgumentException for these, which no caller expects.
    if (!Files.exists(file)) {
      throw new BadInputException(option + ": " + file + ": file not found");
    }
    if (!Files.isRegularFile(file)) {
      throw new BadInputException(option + ": " + file + ": not a file");
    }
    try {
      // Detects PKCS12 or JKS and loads it, checking the password.
      return KeyStore.getInstance(file.toFile(), password);
    } catch (IOException e) {
      throw new BadInputException(
          option
              + ": cannot read keystore "
              + file
              + " (wrong password or format?): "
              + e.getMessage());
    }
  }
}
