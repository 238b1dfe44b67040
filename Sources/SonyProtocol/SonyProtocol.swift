// The SonyProtocol layer; see HOUSE_STYLE.md for what belongs here.
