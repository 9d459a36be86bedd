; Okapi's Windows installer (NSIS 3, `makensis`, which runs on Linux too). `.ci/windows`
; builds it:
;
;   makensis -DVERSION=0.1.0 -DEXE=target/windows/okapi.exe -DOUTFILE=target/windows/okapi-setup.exe \
;       packaging/windows/okapi.nsi
;
; A per-user install, no administrator rights: the program in
; %LOCALAPPDATA%\Programs\Okapi, a Start-menu entry, an optional desktop shortcut, `.ggf`
; files opening in Okapi, Okapi in "Open with" for its JSON games and transcripts (never
; `.scr`: Windows runs such files as screensavers, that is as programs), an App Paths
; entry (`okapi` from the Run box and `start okapi`), optionally the folder on the user's
; PATH (`okapi solve ...` typed in cmd or PowerShell), and its entry in Apps & features.
; The uninstaller keeps the settings and the game in progress (%APPDATA%\Okapi) unless
; asked to remove them; games saved elsewhere are never touched. Silent: `/S`, for both.

!ifndef VERSION
  !error "give the version: -DVERSION=x.y.z"
!endif
!ifndef EXE
  !error "give the program: -DEXE=path/okapi.exe"
!endif
!ifndef OUTFILE
  !define OUTFILE "okapi-setup.exe"
!endif

Unicode true
Target amd64-unicode
SetCompressor /SOLID lzma
RequestExecutionLevel user
ManifestDPIAware true

!define APP "Okapi"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Okapi"
!define APP_PATHS_KEY "Software\Microsoft\Windows\CurrentVersion\App Paths\okapi.exe"
!define CLASSES "Software\Classes"

Name "${APP}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\Okapi"
InstallDirRegKey HKCU "${UNINSTALL_KEY}" "InstallLocation"
BrandingText "Okapi ${VERSION}"
VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "Okapi"
VIAddVersionKey "FileDescription" "Okapi installer"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "MIT licence"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "StrFunc.nsh"
!include "WinMessages.nsh"
${StrStr}
${UnStrRep}

!define MUI_ICON "okapi.ico"
!define MUI_UNICON "okapi.ico"
!define MUI_ABORTWARNING
!define MUI_COMPONENTSPAGE_NODESC
!define MUI_FINISHPAGE_RUN "$INSTDIR\okapi.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start Okapi"

; The stock welcome speaks of closing other programs and restarting, for installs that
; replace system files: this one writes only to the user's own folders.
!define MUI_WELCOMEPAGE_TITLE "Okapi ${VERSION}"
!define MUI_WELCOMEPAGE_TEXT "Okapi plays and analyses Othello: an opponent at every level, exact endgame solving, game analysis and a mistake trainer.$\r$\n$\r$\nIt is installed for you alone, in your own folders: no administrator rights are needed, and nothing else on the computer changes.$\r$\n$\r$\nClick Next to continue."
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
; Section names stay short (a long one was cut behind the list's scrollbar): the
; folder is said above the list.
!define MUI_COMPONENTSPAGE_TEXT_TOP "Your settings and the game in progress are in %APPDATA%\Okapi; they stay for a later install unless you tick them. Games you saved elsewhere are never touched."
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

; Okapi must not be running while its program is replaced or removed: a running program's
; file cannot be written. Asks to close it (Retry) or gives up (Cancel; silent: gives up).
!macro CheckNotRunning un
Function ${un}CheckNotRunning
  ${If} ${FileExists} "$INSTDIR\okapi.exe"
    retry:
    ClearErrors
    FileOpen $0 "$INSTDIR\okapi.exe" a
    ${If} ${Errors}
      MessageBox MB_RETRYCANCEL|MB_ICONEXCLAMATION "Okapi is running. Close it, then choose Retry." /SD IDCANCEL IDRETRY retry
      SetErrorLevel 2
      Quit
    ${EndIf}
    FileClose $0
  ${EndIf}
FunctionEnd
!macroend
!insertmacro CheckNotRunning ""
!insertmacro CheckNotRunning "un."

Section "Okapi (the program, Start menu, Apps & features)" SecMain
  SectionIn RO
  Call CheckNotRunning
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  File "/oname=okapi.exe" "${EXE}"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\Okapi.lnk" "$INSTDIR\okapi.exe" "" "$INSTDIR\okapi.exe" 0 \
    SW_SHOWNORMAL "" "Play and analyse Othello"

  ; `okapi` from the Run box and from `start okapi`.
  WriteRegStr HKCU "${APP_PATHS_KEY}" "" "$INSTDIR\okapi.exe"
  WriteRegStr HKCU "${APP_PATHS_KEY}" "Path" "$INSTDIR"

  ; Apps & features.
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "Okapi"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\okapi.exe,0"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "Okapi"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  SectionGetSize ${SecMain} $0
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" $0

  ; What Windows needs to offer Okapi for its files ("Open with", Default apps).
  WriteRegStr HKCU "${CLASSES}\Applications\okapi.exe" "FriendlyAppName" "Okapi"
  WriteRegStr HKCU "${CLASSES}\Applications\okapi.exe\shell\open\command" "" '"$INSTDIR\okapi.exe" "%1"'
  WriteRegStr HKCU "${CLASSES}\Applications\okapi.exe\SupportedTypes" ".ggf" ""
  WriteRegStr HKCU "${CLASSES}\Applications\okapi.exe\SupportedTypes" ".json" ""
  WriteRegStr HKCU "${CLASSES}\Applications\okapi.exe\SupportedTypes" ".txt" ""
  WriteRegStr HKCU "${CLASSES}\Okapi.Game" "" "Othello game"
  WriteRegStr HKCU "${CLASSES}\Okapi.Game\DefaultIcon" "" "$INSTDIR\okapi.exe,0"
  WriteRegStr HKCU "${CLASSES}\Okapi.Game\shell\open\command" "" '"$INSTDIR\okapi.exe" "%1"'
  ; Okapi's JSON games and transcripts share their extensions with every other JSON and
  ; text file: Okapi is offered in "Open with", never made their default.
  WriteRegStr HKCU "${CLASSES}\.json\OpenWithProgids" "Okapi.Game" ""
  WriteRegStr HKCU "${CLASSES}\.txt\OpenWithProgids" "Okapi.Game" ""
SectionEnd

Section "Open .ggf games with Okapi" SecGgf
  WriteRegStr HKCU "${CLASSES}\.ggf" "" "Okapi.Game"
  WriteRegStr HKCU "${CLASSES}\.ggf" "Content Type" "text/plain"
  WriteRegStr HKCU "${CLASSES}\.ggf\OpenWithProgids" "Okapi.Game" ""
  ; Explorer reads the associations again.
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
SectionEnd

Section "Okapi on the command line (the folder on your PATH)" SecPath
  ReadRegStr $0 HKCU "Environment" "Path"
  ${StrStr} $1 ";$0;" ";$INSTDIR;"
  ${If} $1 == ""
    ${If} $0 == ""
      WriteRegExpandStr HKCU "Environment" "Path" "$INSTDIR"
    ${Else}
      WriteRegExpandStr HKCU "Environment" "Path" "$0;$INSTDIR"
    ${EndIf}
    SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=2000
  ${EndIf}
SectionEnd

Section /o "A shortcut on the desktop" SecDesktop
  SetShellVarContext current
  CreateShortcut "$DESKTOP\Okapi.lnk" "$INSTDIR\okapi.exe" "" "$INSTDIR\okapi.exe" 0
SectionEnd

Section "un.Okapi (the program and its entries)" UnSecMain
  SectionIn RO
  Call un.CheckNotRunning
  SetShellVarContext current
  Delete "$INSTDIR\okapi.exe"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  ; The Programs folder the install made, if nothing else is in it (RMDir removes only an
  ; empty folder).
  RMDir "$LOCALAPPDATA\Programs"
  Delete "$SMPROGRAMS\Okapi.lnk"
  Delete "$DESKTOP\Okapi.lnk"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  DeleteRegKey HKCU "${APP_PATHS_KEY}"
  DeleteRegKey HKCU "${CLASSES}\Applications\okapi.exe"
  DeleteRegKey HKCU "${CLASSES}\Okapi.Game"
  DeleteRegValue HKCU "${CLASSES}\.json\OpenWithProgids" "Okapi.Game"
  DeleteRegValue HKCU "${CLASSES}\.txt\OpenWithProgids" "Okapi.Game"
  DeleteRegValue HKCU "${CLASSES}\.ggf\OpenWithProgids" "Okapi.Game"
  ReadRegStr $0 HKCU "${CLASSES}\.ggf" ""
  ${If} $0 == "Okapi.Game"
    ; The association and the content type written with it.
    DeleteRegValue HKCU "${CLASSES}\.ggf" ""
    DeleteRegValue HKCU "${CLASSES}\.ggf" "Content Type"
  ${EndIf}
  DeleteRegKey /ifempty HKCU "${CLASSES}\.ggf\OpenWithProgids"
  DeleteRegKey /ifempty HKCU "${CLASSES}\.ggf"
  ; The folder off the user's PATH, wherever it is in the list.
  ReadRegStr $0 HKCU "Environment" "Path"
  ${UnStrRep} $1 ";$0;" ";$INSTDIR;" ";"
  ${UnStrRep} $1 "$1" ";;" ";"
  StrCpy $2 $1 1
  ${If} $2 == ";"
    StrCpy $1 $1 "" 1
  ${EndIf}
  StrCpy $2 $1 1 -1
  ${If} $2 == ";"
    StrCpy $1 $1 -1
  ${EndIf}
  ${If} $1 != $0
    ${If} $1 == ""
      ; Okapi's folder was all of it: no empty value left behind.
      DeleteRegValue HKCU "Environment" "Path"
    ${Else}
      WriteRegExpandStr HKCU "Environment" "Path" "$1"
    ${EndIf}
    SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=2000
  ${EndIf}
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
SectionEnd

; Off unless chosen: the settings and the game in progress stay for a later install.
Section /o "un.My settings and game in progress" UnSecData
  SetShellVarContext current
  RMDir /r "$APPDATA\Okapi"
SectionEnd
