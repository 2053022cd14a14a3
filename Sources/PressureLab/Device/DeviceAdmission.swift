/// The device's answer to one installed app's runtime (``MemoryAdmission``): the app's
/// allocations are admitted against its per-app limit and the device's memory
/// (``Device/admit(_:for:)``).
final class DeviceAdmission: MemoryAdmission {
    /// Weak: an app (and its runtime) may outlive its device; it then admits everything.
    private weak var device: Device?
    /// Unowned, not weak: a weak reference gives the app a side table, and every retain and
    /// release of it takes the runtime's slow path. The device never drops an installed app,
    /// so while the device lives (checked first) the app does.
    private unowned let installed: Device.InstalledApp

    init(device: Device, installed: Device.InstalledApp) {
        self.device = device
        self.installed = installed
    }

    func admit(_ request: AdmissionRequest) -> AdmissionDecision {
        guard let device else { return .granted }
        return device.admit(request.bytes, for: installed)
    }

    func filePagesRead(_ bytes: Int, refault: Bool) {
        guard let device else { return }
        device.linuxKernel?.filePagesRead(bytes, refault: refault, by: installed, on: device)
    }
}
