import HDRShootCLI

HDRShoot.main()
