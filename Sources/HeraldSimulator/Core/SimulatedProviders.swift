/// The providers `herald simulate` serves, one line each, in the order their
/// sections are decoded, their flags listed, their services built and their
/// start-up lines printed.
///
/// It exists so adding a simulated provider is its folder plus one line
/// here: nothing else in the simulator or the command names it.
public enum SimulatedProviders {
    public static let all: [any SimulatedProvider.Type] = [
        SimulatorSettings.APNs.self,
        SimulatorSettings.FCM.self,
        SimulatorSettings.WebPush.self,
    ]
}
