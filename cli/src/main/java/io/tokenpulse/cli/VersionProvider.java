package io.tokenpulse.cli;

import picocli.CommandLine.IVersionProvider;

/** Reads the version Maven wrote into the jar's manifest, so {@code --version} never drifts from the pom. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = TokenPulse.class.getPackage().getImplementationVersion();
        return new String[] {"tokenpulse " + (version == null ? "development build" : version)};
    }
}
