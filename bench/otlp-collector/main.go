// The OpenTelemetry Collector with only the OTLP receiver and the debug exporter, built from Debian's sources.
package main

import (
	"log"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/envprovider"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/debugexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"
)

func main() {
	factories := func() (otelcol.Factories, error) {
		receivers, err := otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory())
		if err != nil {
			return otelcol.Factories{}, err
		}
		exporters, err := otelcol.MakeFactoryMap[exporter.Factory](debugexporter.NewFactory())
		if err != nil {
			return otelcol.Factories{}, err
		}
		return otelcol.Factories{Receivers: receivers, Exporters: exporters, Telemetry: otelconftelemetry.NewFactory()}, nil
	}
	set := otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "otelcol-debian", Description: "OTLP receiver, debug exporter", Version: "debian"},
		Factories: factories,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{
			ResolverSettings: confmap.ResolverSettings{ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory(), envprovider.NewFactory()}},
		},
	}
	if err := otelcol.NewCommand(set).Execute(); err != nil {
		log.Fatal(err)
	}
}
