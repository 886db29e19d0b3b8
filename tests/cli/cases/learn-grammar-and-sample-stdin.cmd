learn - -
